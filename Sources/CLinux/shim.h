// Linux calls that Swift's Glibc module does not export.
#include <signal.h>
// signalfd(2): signals read as data from a descriptor that a reader polls together with its
// input (no handler, no global state).
#include <sys/signalfd.h>
// syncfs(2) (a GNU extension in <unistd.h>): one flush for a batch of .apns files instead of
// one fsync each.
int syncfs(int fd);
