#ifndef IMSH_CEDIT_SHIM_H
#define IMSH_CEDIT_SHIM_H
#include <stdio.h>
#include <histedit.h>

/* history() is variadic and Swift cannot call variadic C functions:
   each wrapper below fixes one operation's argument list. */

static inline int imsh_history_set_size(History *h, HistEvent *ev, int size) {
    return history(h, ev, H_SETSIZE, size);
}

static inline int imsh_history_get_size(History *h, HistEvent *ev) {
    return history(h, ev, H_GETSIZE);
}

static inline int imsh_history_enter(History *h, HistEvent *ev, const char *line) {
    return history(h, ev, H_ENTER, line);
}

static inline int imsh_history_set_unique(History *h, HistEvent *ev, int unique) {
    return history(h, ev, H_SETUNIQUE, unique);
}

static inline int imsh_history_load(History *h, HistEvent *ev, const char *path) {
    return history(h, ev, H_LOAD, path);
}

static inline int imsh_history_save(History *h, HistEvent *ev, const char *path) {
    return history(h, ev, H_SAVE, path);
}

#endif
