#ifndef IMSH_CTRANSPORT_SHIM_H
#define IMSH_CTRANSPORT_SHIM_H
// Linux headers and GNU calls the Glibc module leaves out; the transport's event loop needs them.
#include <pthread.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>

// GNU extensions, declared here because the Glibc module is built without _GNU_SOURCE.
extern int accept4(int fd, struct sockaddr *address, socklen_t *length, int flags);
extern int pthread_setname_np(pthread_t thread, const char *name);

/// accept4 without the peer address (the transport asks getpeername when it needs it).
static inline int imsh_accept(int fd, int flags) {
    return accept4(fd, 0, 0, flags);
}

static inline int imsh_set_thread_name(pthread_t thread, const char *name) {
    return pthread_setname_np(thread, name);
}
#endif
