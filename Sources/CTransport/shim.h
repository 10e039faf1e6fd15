#ifndef IMSH_CTRANSPORT_SHIM_H
#define IMSH_CTRANSPORT_SHIM_H
// Linux headers the Glibc module leaves out; the transport's event loop needs them.
// Headers Glibc already has are not included here: a second copy of their macros
// (SOCK_STREAM, ...) would hide them from Swift.
#include <sys/epoll.h>
#include <sys/eventfd.h>

// GNU extensions, which the Glibc module (built without _GNU_SOURCE) does not declare.
// The parameter types are those of socklen_t and pthread_t on Linux.
struct sockaddr;
extern int accept4(int fd, struct sockaddr *address, unsigned int *length, int flags);
extern int pthread_setname_np(unsigned long thread, const char *name);
// From <malloc.h>, which the Glibc module does not include; size_t is unsigned long on Linux.
extern int malloc_trim(unsigned long pad);

/// accept4 without the peer address (the transport asks getpeername when it needs it).
static inline int imsh_accept(int fd, int flags) {
    return accept4(fd, 0, 0, flags);
}

static inline int imsh_set_thread_name(unsigned long thread, const char *name) {
    return pthread_setname_np(thread, name);
}
#endif
