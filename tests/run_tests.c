/* run_tests.c - runs every CUnit suite and prints CUnit's run summary.  Exits non-zero on any
 * failure, and also when no test ran, so an empty run cannot pass unnoticed. */
#include <stdio.h>

#include <CUnit/Basic.h>

#include "gc_test.h"

int main(int argc, char **argv)
{
  if (CU_initialize_registry() != CUE_SUCCESS)
    return CU_get_error();
  int (*adders[])(void) = { gc_test_add_nfd,     gc_test_add_tfd,     gc_test_add_io,
                            gc_test_add_contact, gc_test_add_drop,    gc_test_add_impact,
                            gc_test_add_fit,     gc_test_add_rigid,   gc_test_add_nlist,
                            gc_test_add_chute,   gc_test_add_models,  gc_test_add_chute_exp,
                            gc_test_add_compare, gc_test_add_rolling, gc_test_add_damping,
                            gc_test_add_slope,   gc_test_add_compose };
  for (size_t i = 0; i < sizeof adders / sizeof adders[0]; i++) {
    if (adders[i]() != CUE_SUCCESS) {
      fprintf(stderr, "run_tests: cannot register suite %zu: %s\n", i, CU_get_error_msg());
      CU_cleanup_registry();
      return 1;
    }
  }
  CU_basic_set_mode(CU_BRM_VERBOSE);
  /* run_tests [SUITE [TEST]]: one suite or one test (for debugging); all by default */
  CU_pSuite suite = argc > 1 ? CU_get_suite(argv[1]) : NULL;
  CU_pTest test = suite && argc > 2 ? CU_get_test(suite, argv[2]) : NULL;
  if ((argc > 1 && !suite) || (argc > 2 && !test)) {
    fprintf(stderr, "run_tests: no suite '%s'%s%s\n", argv[1], argc > 2 ? " or test " : "",
            argc > 2 ? argv[2] : "");
    CU_cleanup_registry();
    return 2;
  }
  if (test)
    CU_basic_run_test(suite, test);
  else if (suite)
    CU_basic_run_suite(suite);
  else
    CU_basic_run_tests();
  unsigned ran = CU_get_number_of_tests_run();
  unsigned failed = CU_get_number_of_tests_failed() + CU_get_number_of_suites_failed();
  unsigned afail = CU_get_number_of_failures();
  CU_cleanup_registry();
  printf("\n");
  if (ran == 0) {
    fprintf(stderr, "run_tests: no test was executed\n");
    return 1;
  }
  return (failed || afail) ? 1 : 0;
}
