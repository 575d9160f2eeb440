#ifndef LANDMARK_NEAR_CCRYPT_SHIM_H
#define LANDMARK_NEAR_CCRYPT_SHIM_H
// libxcrypt's crypt(3) (Debian: libcrypt-dev): crypt_rn to check passwords against
// yescrypt/bcrypt/SHA-crypt hashes, crypt_gensalt_rn for new ones.
#include <crypt.h>
#endif
