#ifndef IMSH_CNETLINK_SHIM_H
#define IMSH_CNETLINK_SHIM_H
/* Kernel interfaces (linux-libc-dev) for the rtnetlink network monitor. */
#include <sys/socket.h>
#include <sys/eventfd.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/sched.h>
#include <ifaddrs.h>
#include <net/if.h>

/* setns(2) is declared only under _GNU_SOURCE, which Swift's Glibc module does not set. */
extern int setns(int fd, int nstype);
#endif
