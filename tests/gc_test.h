/* gc_test.h - CUnit suites of granucal; each adds its suite(s) to the registry. */
#ifndef GC_TEST_H
#define GC_TEST_H

#include <CUnit/CUnit.h>

int gc_test_add_nfd(void);
int gc_test_add_tfd(void);
int gc_test_add_io(void);
int gc_test_add_contact(void);
int gc_test_add_drop(void);
int gc_test_add_impact(void);
int gc_test_add_fit(void);
int gc_test_add_rigid(void);
int gc_test_add_nlist(void);
int gc_test_add_chute(void);
int gc_test_add_models(void);
int gc_test_add_chute_exp(void);
int gc_test_add_compare(void);
int gc_test_add_rolling(void);
int gc_test_add_damping(void);
int gc_test_add_slope(void);
int gc_test_add_compose(void);

/* Write text to a new temporary file and return its malloc'ed path (tests/gc_test.c). */
char *gc_test_write_tmp(const char *text);

/* |a - b| <= rel |b| */
#define GC_ASSERT_REL(a, b, rel) CU_ASSERT_DOUBLE_EQUAL((a), (b), (rel)*fabs((double)(b)))

/* eq. 3.22 for a law's pair: gc_hertz_contact_time(m, R*, E*, v). */
#define GC_TEST_HERTZ_TIME(pair, m, v) gc_hertz_contact_time((m), (pair).R_star, (pair).E_star, (v))

#ifndef GC_DATADIR
#define GC_DATADIR "data"
#endif

#endif
