#ifndef LANDMARK_NEAR_CMICROHTTPD_SHIM_H
#define LANDMARK_NEAR_CMICROHTTPD_SHIM_H
// GNU libmicrohttpd (Debian: libmicrohttpd-dev). Its start and info calls are variadic,
// which Swift cannot call, so these inline wrappers fix the option lists serve uses.
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <sys/select.h>
#include <microhttpd.h>

/// Starts a daemon on `address` (its port included) with an internal thread pool of
/// `threads` threads, at most `connection_limit` connections, and `timeout_seconds` of
/// inactivity before a connection is closed.
static inline struct MHD_Daemon *landmark_mhd_start(unsigned int flags,
                                                     const struct sockaddr *address,
                                                     MHD_AccessHandlerCallback handler, void *handler_cls,
                                                     MHD_RequestCompletedCallback completed, void *completed_cls,
                                                     MHD_NotifyConnectionCallback notify, void *notify_cls,
                                                     unsigned int threads, unsigned int connection_limit,
                                                     unsigned int timeout_seconds, size_t memory_limit,
                                                     unsigned int backlog) {
    return MHD_start_daemon(flags, 0, NULL, NULL, handler, handler_cls,
                            MHD_OPTION_SOCK_ADDR, address,
                            MHD_OPTION_NOTIFY_COMPLETED, completed, completed_cls,
                            MHD_OPTION_NOTIFY_CONNECTION, notify, notify_cls,
                            MHD_OPTION_THREAD_POOL_SIZE, threads,
                            MHD_OPTION_CONNECTION_LIMIT, connection_limit,
                            MHD_OPTION_CONNECTION_TIMEOUT, timeout_seconds,
                            MHD_OPTION_CONNECTION_MEMORY_LIMIT, memory_limit,
                            MHD_OPTION_LISTEN_BACKLOG_SIZE, backlog,
                            MHD_OPTION_END);
}

/// The port the daemon listens on (useful after binding port 0); 0 when unknown.
static inline uint16_t landmark_mhd_bound_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info == NULL ? 0 : info->port;
}

/// The socket of a connection; -1 when unknown.
static inline int landmark_mhd_connection_fd(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info == NULL ? -1 : info->connect_fd;
}

/// Connections currently open.
static inline unsigned int landmark_mhd_connection_count(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_CURRENT_CONNECTIONS);
    return info == NULL ? 0 : info->num_connections;
}

#endif
