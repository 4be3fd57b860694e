#include <stdint.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <microhttpd.h>
#include <malloc.h>

/* MHD_start_daemon is variadic, which Swift cannot call: this passes the options as one array
   (MHD_OPTION_ARRAY, ended by MHD_OPTION_END) instead. */
static inline struct MHD_Daemon *liquidlens_mhd_start(
    unsigned int flags, uint16_t port, MHD_AccessHandlerCallback handler, void *handler_context,
    const struct MHD_OptionItem *options) {
    return MHD_start_daemon(flags, port, NULL, NULL, handler, handler_context, MHD_OPTION_ARRAY, options,
                            MHD_OPTION_END);
}

/* The port the daemon listens on (the one the system chose for port 0); 0 when unknown. */
static inline uint16_t liquidlens_mhd_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info ? info->port : 0;
}

/* A thread per connection gives glibc a new malloc arena per busy connection, each keeping the
   pages its answers freed: the server's resident size then follows its busiest moment, more so
   on machines with many cores. The server's threads share `count` arenas instead. */
static inline void liquidlens_share_malloc_arenas(int count) {
    mallopt(M_ARENA_MAX, count);
}
