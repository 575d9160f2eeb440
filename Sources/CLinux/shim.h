// Linux calls that Swift's Glibc module does not export.
#include <signal.h>
// signalfd(2): signals read as data from a descriptor that a reader polls together with its
// input (no handler, no global state).
#include <sys/signalfd.h>
// syncfs(2) (a GNU extension in <unistd.h>): one flush for a batch of .apns files instead of
// one fsync each.
int syncfs(int fd);
// posix_spawn's GNU file actions (glibc 2.29 / 2.34): the tests start children with nothing
// inherited but stdin, stdout and stderr, and in a directory of their own.
#include <spawn.h>
int posix_spawn_file_actions_addclosefrom_np(posix_spawn_file_actions_t *actions, int from);
int posix_spawn_file_actions_addchdir_np(posix_spawn_file_actions_t *restrict actions, const char *restrict path);
// A cache prefetch (the compiler's builtin; Swift has none): the index's scans ask for the lines
// of the few buckets a query will read before reading any, so their cache misses overlap
// instead of following one another (they were most of a query's time); the engine asks for the
// device-table bucket of a fix a few records ahead, so that a new device's miss overlaps too.
static inline void landmark_prefetch(const void *address) { __builtin_prefetch(address, 0, 3); }
// sincos(3) (a GNU extension in <math.h>): a sine and a cosine for the price of about one; every
// query turns its position into Earth-centred coordinates.
void sincos(double x, double *sine, double *cosine);
