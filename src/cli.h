/* cli.h - subcommands of the granucal program. Each returns the process exit status:
 * 0 success, 1 a run-time failure (bad input file, model failure), 2 a usage error. */
#ifndef GC_CLI_H
#define GC_CLI_H

#include "cli_common.h"

#ifndef GC_VERSION
#define GC_VERSION "unknown"
#endif

int gc_cmd_contact(int argc, char **argv);
int gc_cmd_models(int argc, char **argv);
int gc_cmd_drop(int argc, char **argv);
int gc_cmd_impact(int argc, char **argv);
int gc_cmd_fit(int argc, char **argv);
int gc_cmd_chute(int argc, char **argv);
int gc_cmd_data(int argc, char **argv);
int gc_cmd_compare(int argc, char **argv);
int gc_cmd_export(int argc, char **argv);

/* The option tables of the commands parsed by gc_cli_parse (--help, granucal --complete and
 * granucal --man-options read them too). */
extern const gc_cli_opt gc_chute_options[];
extern const gc_cli_opt gc_compare_options[];
extern const gc_cli_opt gc_contact_options[];
extern const gc_cli_opt gc_data_options[];
extern const gc_cli_opt gc_drop_options[];
extern const gc_cli_opt gc_impact_options[];

#endif
