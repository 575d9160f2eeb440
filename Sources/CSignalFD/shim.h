// Linux's signalfd(2), which Swift's Glibc module does not export: signals read as data from a
// descriptor that a reader polls together with its input (no handler, no global state).
#include <signal.h>
#include <sys/signalfd.h>
