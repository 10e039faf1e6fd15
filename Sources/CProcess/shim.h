#ifndef IMSH_CPROCESS_SHIM_H
#define IMSH_CPROCESS_SHIM_H
/* glibc functions declared only under _GNU_SOURCE, which Swift's Glibc module does not set.
   The file actions are passed as void* so this header needs no second copy of <spawn.h>. */
extern int pipe2(int pipefd[2], int flags);
extern int posix_spawn_file_actions_addclosefrom_np(void *actions, int from);
extern int posix_spawn_file_actions_addchdir_np(void *actions, const char *path);

/* A run polls an eventfd (its cancellation) and a pidfd (its child's end) beside the child's outputs. */
#include <sys/eventfd.h>
#include <sys/pidfd.h>

#include <sys/prctl.h>
/* prctl is variadic, so Swift cannot call it: this makes the calling process the reaper of its
   descendants' orphans (Linux 3.4 and later); 0 on success, -1 with errno otherwise. */
static inline int imsh_set_child_subreaper(void) { return prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0); }
#endif
