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
// A hint that memory is read soon (GCC/Clang's builtin, which Swift has no spelling for): the
// engine asks for the device-table bucket of a fix a few records ahead, so that the cache miss
// of a new device overlaps the work on the fixes before it.
static inline void landmark_near_prefetch(const void *address) { __builtin_prefetch(address); }
