#ifndef LANDMARK_NEAR_CGNUTLS_SHIM_H
#define LANDMARK_NEAR_CGNUTLS_SHIM_H
// GnuTLS (Debian: libgnutls28-dev), the TLS library GNU libmicrohttpd is built with on Debian.
// `serve --tls-cert` hands libmicrohttpd a certificate callback (MHD_OPTION_HTTPS_CERT_CALLBACK,
// GnuTLS's gnutls_certificate_retrieve_function2) rather than the certificate itself, so that a
// SIGHUP can swap the certificate in the running daemon: the callback needs the certificate
// chain and the key in GnuTLS's own forms (gnutls_pcert_st, gnutls_privkey_t), made with the
// functions below. Opened on first use rather than linked, as libmicrohttpd is; each field is
// typed with `__typeof__` of the header's declaration and filled by dlsym.
#include "../CShared/landmark_resolve.h"
#include <gnutls/gnutls.h>
#include <gnutls/abstract.h>

struct landmark_gnutls {
    __typeof__(gnutls_pcert_list_import_x509_raw) *_Nonnull pcert_list_import_x509_raw;
    __typeof__(gnutls_pcert_deinit) *_Nonnull pcert_deinit;
    __typeof__(gnutls_privkey_init) *_Nonnull privkey_init;
    __typeof__(gnutls_privkey_import_x509_raw) *_Nonnull privkey_import_x509_raw;
    __typeof__(gnutls_privkey_deinit) *_Nonnull privkey_deinit;
    __typeof__(gnutls_certificate_allocate_credentials) *_Nonnull certificate_allocate_credentials;
    __typeof__(gnutls_certificate_set_x509_key_mem2) *_Nonnull certificate_set_x509_key_mem2;
    __typeof__(gnutls_certificate_free_credentials) *_Nonnull certificate_free_credentials;
    __typeof__(gnutls_strerror) *_Nonnull error_text;
};

/// The table of `library` (a handle from dlopen); `*missing` names the first function it lacks
/// (the table is then incomplete and must not be used), else is set to NULL.
static inline struct landmark_gnutls landmark_gnutls_resolve(void *_Nonnull library, const char *_Nullable *_Nonnull missing) {
    struct landmark_gnutls table;
    memset(&table, 0, sizeof table);
    *missing = NULL;
    LANDMARK_RESOLVE(pcert_list_import_x509_raw, gnutls_pcert_list_import_x509_raw);
    LANDMARK_RESOLVE(pcert_deinit, gnutls_pcert_deinit);
    LANDMARK_RESOLVE(privkey_init, gnutls_privkey_init);
    LANDMARK_RESOLVE(privkey_import_x509_raw, gnutls_privkey_import_x509_raw);
    LANDMARK_RESOLVE(privkey_deinit, gnutls_privkey_deinit);
    LANDMARK_RESOLVE(certificate_allocate_credentials, gnutls_certificate_allocate_credentials);
    LANDMARK_RESOLVE(certificate_set_x509_key_mem2, gnutls_certificate_set_x509_key_mem2);
    LANDMARK_RESOLVE(certificate_free_credentials, gnutls_certificate_free_credentials);
    LANDMARK_RESOLVE(error_text, gnutls_strerror);
    return table;
}

#endif
