#ifndef LANDMARK_NEAR_CMICROHTTPD_SHIM_H
#define LANDMARK_NEAR_CMICROHTTPD_SHIM_H
// GNU libmicrohttpd (Debian: libmicrohttpd-dev), opened on first use rather than linked
// (SharedLibrary.swift says why). Its functions are reached through the table below, each field
// declared with the type of the function in <microhttpd.h> (`__typeof__` of a declaration does
// not link to it), filled by dlsym (LANDMARK_RESOLVE, ../CShared/landmark_resolve.h). Its start and info calls are variadic, which Swift can
// neither call nor type: their fields hold the address as a number, and the inline wrappers
// below (given that number) fix the option lists serve uses.
#include "../CShared/landmark_resolve.h"
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <sys/select.h>
#include <microhttpd.h>

struct landmark_mhd {
    __typeof__(MHD_quiesce_daemon) *_Nonnull quiesce_daemon;
    __typeof__(MHD_stop_daemon) *_Nonnull stop_daemon;
    __typeof__(MHD_lookup_connection_value) *_Nonnull lookup_connection_value;
    __typeof__(MHD_get_connection_values) *_Nonnull get_connection_values;
    __typeof__(MHD_create_response_from_buffer) *_Nonnull create_response_from_buffer;
    __typeof__(MHD_add_response_header) *_Nonnull add_response_header;
    __typeof__(MHD_queue_response) *_Nonnull queue_response;
    __typeof__(MHD_destroy_response) *_Nonnull destroy_response;
    __typeof__(MHD_suspend_connection) *_Nonnull suspend_connection;
    __typeof__(MHD_resume_connection) *_Nonnull resume_connection;
    uintptr_t start_daemon;         // __typeof__(MHD_start_daemon) *
    uintptr_t get_daemon_info;      // __typeof__(MHD_get_daemon_info) *
    uintptr_t get_connection_info;  // __typeof__(MHD_get_connection_info) *
};

/// The table of `library` (a handle from dlopen); `*missing` names the first function it lacks
/// (the table is then incomplete and must not be used), else is set to NULL.
static inline struct landmark_mhd landmark_mhd_resolve(void *_Nonnull library, const char *_Nullable *_Nonnull missing) {
    struct landmark_mhd table;
    memset(&table, 0, sizeof table);  // never used when incomplete, but not left undefined
    *missing = NULL;
    LANDMARK_RESOLVE(quiesce_daemon, MHD_quiesce_daemon);
    LANDMARK_RESOLVE(stop_daemon, MHD_stop_daemon);
    LANDMARK_RESOLVE(lookup_connection_value, MHD_lookup_connection_value);
    LANDMARK_RESOLVE(get_connection_values, MHD_get_connection_values);
    LANDMARK_RESOLVE(create_response_from_buffer, MHD_create_response_from_buffer);
    LANDMARK_RESOLVE(add_response_header, MHD_add_response_header);
    LANDMARK_RESOLVE(queue_response, MHD_queue_response);
    LANDMARK_RESOLVE(destroy_response, MHD_destroy_response);
    LANDMARK_RESOLVE(suspend_connection, MHD_suspend_connection);
    LANDMARK_RESOLVE(resume_connection, MHD_resume_connection);
    LANDMARK_RESOLVE(start_daemon, MHD_start_daemon);
    LANDMARK_RESOLVE(get_daemon_info, MHD_get_daemon_info);
    LANDMARK_RESOLVE(get_connection_info, MHD_get_connection_info);
    return table;
}

/// Starts a daemon (`start_daemon`: the table's `MHD_start_daemon`) on `address` (its port
/// included) with an internal thread pool of `threads` threads, at most `connection_limit`
/// connections, at most `per_client_limit` of them from one IP address (libmicrohttpd closes
/// the others as they arrive), and `timeout_seconds` of inactivity before a connection is closed.
/// With a `certificate_callback` (a `gnutls_certificate_retrieve_function2 *`), it speaks TLS
/// only (MHD_USE_TLS): the callback gives each handshake its certificate, and `tls_priorities`
/// (GnuTLS's priority string) the protocol versions and ciphers allowed.
static inline struct MHD_Daemon *landmark_mhd_start(uintptr_t start_daemon, unsigned int flags,
                                                     const struct sockaddr *address,
                                                     MHD_AccessHandlerCallback handler, void *handler_cls,
                                                     MHD_RequestCompletedCallback completed, void *completed_cls,
                                                     MHD_NotifyConnectionCallback notify, void *notify_cls,
                                                     unsigned int threads, unsigned int connection_limit,
                                                     unsigned int per_client_limit,
                                                     unsigned int timeout_seconds, size_t memory_limit,
                                                     unsigned int backlog,
                                                     void *_Nullable certificate_callback,
                                                     const char *_Nullable tls_priorities) {
    __typeof__(MHD_start_daemon) *start = (__typeof__(MHD_start_daemon) *)start_daemon;
    if (certificate_callback == NULL) {
        return start(flags, 0, NULL, NULL, handler, handler_cls,
                     MHD_OPTION_SOCK_ADDR, address,
                     MHD_OPTION_NOTIFY_COMPLETED, completed, completed_cls,
                     MHD_OPTION_NOTIFY_CONNECTION, notify, notify_cls,
                     MHD_OPTION_THREAD_POOL_SIZE, threads,
                     MHD_OPTION_CONNECTION_LIMIT, connection_limit,
                     MHD_OPTION_PER_IP_CONNECTION_LIMIT, per_client_limit,
                     MHD_OPTION_CONNECTION_TIMEOUT, timeout_seconds,
                     MHD_OPTION_CONNECTION_MEMORY_LIMIT, memory_limit,
                     MHD_OPTION_LISTEN_BACKLOG_SIZE, backlog,
                     MHD_OPTION_END);
    }
    return start(flags | MHD_USE_TLS, 0, NULL, NULL, handler, handler_cls,
                 MHD_OPTION_SOCK_ADDR, address,
                 MHD_OPTION_NOTIFY_COMPLETED, completed, completed_cls,
                 MHD_OPTION_NOTIFY_CONNECTION, notify, notify_cls,
                 MHD_OPTION_THREAD_POOL_SIZE, threads,
                 MHD_OPTION_CONNECTION_LIMIT, connection_limit,
                 MHD_OPTION_PER_IP_CONNECTION_LIMIT, per_client_limit,
                 MHD_OPTION_CONNECTION_TIMEOUT, timeout_seconds,
                 MHD_OPTION_CONNECTION_MEMORY_LIMIT, memory_limit,
                 MHD_OPTION_LISTEN_BACKLOG_SIZE, backlog,
                 MHD_OPTION_HTTPS_CERT_CALLBACK, certificate_callback,
                 MHD_OPTION_HTTPS_PRIORITIES, tls_priorities,
                 MHD_OPTION_END);
}

/// The port the daemon listens on (useful after binding port 0); 0 when unknown.
static inline uint16_t landmark_mhd_bound_port(uintptr_t get_daemon_info, struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = ((__typeof__(MHD_get_daemon_info) *)get_daemon_info)(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info == NULL ? 0 : info->port;
}

/// The socket of a connection; -1 when unknown.
static inline int landmark_mhd_connection_fd(uintptr_t get_connection_info, struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info =
        ((__typeof__(MHD_get_connection_info) *)get_connection_info)(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info == NULL ? -1 : info->connect_fd;
}

/// Connections currently open.
static inline unsigned int landmark_mhd_connection_count(uintptr_t get_daemon_info, struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info =
        ((__typeof__(MHD_get_daemon_info) *)get_daemon_info)(daemon, MHD_DAEMON_INFO_CURRENT_CONNECTIONS);
    return info == NULL ? 0 : info->num_connections;
}

#endif
