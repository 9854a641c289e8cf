/* gc_outputs.h - the one guard of what a command writes, and the lock of an output directory.
 *
 * A command declares every file it will write in an output plan (gc_outplan): a file given
 * by an option, or a name in an output directory (numbered files as the printf format the
 * writer uses, e.g. "particles_%06ld.vtk"), and every file it reads, including the files
 * named inside its cards.  gc_outplan_check refuses, before anything is written, an output
 * that is one of the inputs or another output: the same file (device and inode) whatever the
 * spelling (symbolic links, ./ and ../), or the same canonical path for a file not yet there.
 * Standard output ("-" or NULL) and character devices (/dev/null) never conflict. */
#ifndef GC_OUTPUTS_H
#define GC_OUTPUTS_H

#include <stddef.h>

typedef struct {
  char *path; /* the file, or the directory of name */
  char *name; /* NULL: path is the file (or, with is_dir, the output directory itself) */
  int is_dir; /* 1: path is an output directory */
} gc_outplan_out;

typedef struct {
  char *path;
  long spare; /* the index of the one output that may replace it (an input read whole before
                 * anything is written, e.g. the checkpoint a run resumes from), else -1 */
} gc_outplan_in;

typedef struct {
  gc_outplan_out *out;
  size_t nout, capout;
  gc_outplan_in *in;
  size_t nin, capin;
  int nomem; /* an allocation failed: gc_outplan_check says so */
} gc_outplan;

void gc_outplan_init(gc_outplan *p);
void gc_outplan_free(gc_outplan *p);
/* An output file given by its path (NULL or "-", standard output: nothing).  *idx (if not
 * NULL) is set to its index, for gc_outplan_input's spare. */
void gc_outplan_file(gc_outplan *p, const char *path, long *idx);
/* An output directory: the directory itself and its lock file (gc_dirlock). */
void gc_outplan_dir(gc_outplan *p, const char *dir);
/* A file that is written in dir under name; a printf integer conversion in name (%d, %06ld)
 * stands for any run of digits: every file the writer may number. */
void gc_outplan_dir_file(gc_outplan *p, const char *dir, const char *name, long *idx);
/* A file the command reads (NULL, "" and "-" are skipped); spare: as gc_outplan_in. */
void gc_outplan_input(gc_outplan *p, const char *path, long spare);
/* GC_SUCCESS, or GC_EINVAL with a message naming both files ("output A is the input B",
 * "outputs A and B are the same file"), or GC_ENOMEM. */
int gc_outplan_check(const gc_outplan *p, char *msg, size_t msglen);

/* Does name match the printf format fmt, whose integer conversions stand for digits? */
int gc_name_matches_format(const char *fmt, const char *name);

/* Refuse outputs that are inputs or each other (a plan of plain files, see above). */
int gc_outputs_check(const char *const *outs, size_t nouts, const char *const *ins, size_t nins,
                     char *msg, size_t msglen);

/* The lock of an output directory: an fcntl write lock on DIR/GC_DIRLOCK_NAME, held while a
 * command writes there, so that a second run into the same directory is refused instead of
 * mixing its files with the first's.  The kernel drops the lock when the process ends however
 * it ends, so a killed run never blocks the next; the file itself is removed on release and by
 * the signal handler (gc_signals_install). */
#define GC_DIRLOCK_NAME ".granucal.lock"
typedef struct {
  int fd;   /* -1: not held */
  int slot; /* the signal handler's slot of path, -1 if none */
  char *path;
} gc_dirlock;
#define GC_DIRLOCK_INIT                                                                            \
  {                                                                                                \
    -1, -1, NULL                                                                                   \
  }

/* Lock the existing directory dir.  GC_EINVAL with a message naming the directory and the pid
 * of the process that holds it; GC_EIO if the lock file cannot be made. */
int gc_dirlock_acquire(gc_dirlock *l, const char *dir, char *msg, size_t msglen);
/* Remove the lock file and drop the lock (nothing if not held); l may be acquired again. */
void gc_dirlock_release(gc_dirlock *l);

#endif
