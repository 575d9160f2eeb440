// OpenSSL 3 (Debian: libssl-dev): ES256 signatures for the APNs provider JWT, SHA-1 for
// name-based UUIDs, and X509 stores for --apns-ca.
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/ec.h>
#include <openssl/ecdsa.h>
#include <openssl/bn.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/core_names.h>
