#ifndef IMSH_CEDIT_SHIM_H
#define IMSH_CEDIT_SHIM_H
#include <stdio.h>
#include <locale.h>
#include <sys/eventfd.h>
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

/* el_set() and el_get() are variadic too: one wrapper per operation LineEditor uses.
   Strings are UTF-8; libedit converts them with the calling thread's LC_CTYPE. */

typedef char *(*imsh_el_prompt_fn)(EditLine *);
typedef unsigned char (*imsh_el_command_fn)(EditLine *, int);

static inline int imsh_el_set_prompt_esc(EditLine *el, imsh_el_prompt_fn fn, char delimiter) {
    return el_set(el, EL_PROMPT_ESC, fn, (int)delimiter);
}

static inline int imsh_el_set_getcfn(EditLine *el, el_rfunc_t fn) {
    return el_set(el, EL_GETCFN, fn);
}

static inline int imsh_el_set_clientdata(EditLine *el, void *data) {
    return el_set(el, EL_CLIENTDATA, data);
}

static inline void *imsh_el_get_clientdata(EditLine *el) {
    void *data = NULL;
    if (el_get(el, EL_CLIENTDATA, &data) != 0)
        return NULL;
    return data;
}

static inline int imsh_el_addfn(EditLine *el, const char *name, const char *help, imsh_el_command_fn fn) {
    return el_set(el, EL_ADDFN, name, help, fn);
}

static inline int imsh_el_bind(EditLine *el, const char *key, const char *command) {
    return el_set(el, EL_BIND, key, command, (const char *)NULL);
}

static inline int imsh_el_set_hist(EditLine *el, History *h) {
    return el_set(el, EL_HIST, history, h);
}

static inline int imsh_el_set_editor(EditLine *el, const char *mode) {
    return el_set(el, EL_EDITOR, mode);
}

static inline int imsh_el_set_signal(EditLine *el, int handle) {
    return el_set(el, EL_SIGNAL, handle);
}

static inline int imsh_el_set_terminal(EditLine *el, const char *type) {
    return el_set(el, EL_TERMINAL, type);
}

/* Changes one termios flag of libedit's editing mode, e.g. "-isig". */
static inline int imsh_el_setty_edit(EditLine *el, const char *flag) {
    return el_set(el, EL_SETTY, "-d", flag, (const char *)NULL);
}

/* Puts the terminal in libedit's editing mode (raw != 0) or back in its normal mode. */
static inline int imsh_el_prepare_terminal(EditLine *el, int raw) {
    return el_set(el, EL_PREP_TERM, raw);
}

/* Forgets what libedit believes is on screen and draws prompt and line at the cursor. */
static inline int imsh_el_refresh(EditLine *el) {
    return el_set(el, EL_REFRESH);
}

static inline int imsh_el_get_columns(EditLine *el) {
    int columns = 0;
    if (el_get(el, EL_GETTC, "co", &columns) != 0)
        return 0;
    return columns;
}

/* The line editor wakes its thread through an eventfd (sys/eventfd.h above).
   LC_CTYPE_MASK is an expression macro Swift does not import. */
static inline locale_t imsh_new_ctype_locale(const char *name) {
    return newlocale(LC_CTYPE_MASK, name, (locale_t)0);
}

/* wcwidth is declared by wchar.h only under _XOPEN_SOURCE; glibc always has it. */
extern int wcwidth(wchar_t c);

static inline int imsh_wcwidth(wchar_t c) {
    return wcwidth(c);
}

static inline void imsh_use_global_locale(void) {
    uselocale(LC_GLOBAL_LOCALE);
}

#endif
