#if canImport(Glibc)
import Glibc
#endif

/// Whether this test process runs under AddressSanitizer (`swift test --sanitize=address`):
/// its runtime is then linked in. Freed memory stays in ASan's quarantine (256 MiB by default),
/// so resident-size measurements mean something else there.
enum AddressSanitizer {
    static let isActive: Bool = dlsym(nil, "__asan_init") != nil
}
