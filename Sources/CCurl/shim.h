// libcurl (Debian: libcurl4-openssl-dev, built with nghttp2 for HTTP/2), opened on first use
// rather than linked (SharedLibrary.swift says why). Its functions are reached through the table
// below, each field declared with the type of the function in <curl/curl.h> (`__typeof__` of a
// declaration does not link to it), filled by dlsym (LANDMARK_RESOLVE, ../CShared/landmark_resolve.h). curl_easy_setopt, curl_multi_setopt and
// curl_easy_getinfo are variadic, which Swift can neither call nor type: their fields hold the
// address as a number, and the typed wrappers below (given that number) pass each kind of
// argument through.
#include "../CShared/landmark_resolve.h"
#include <curl/curl.h>
#include <stdint.h>

struct landmark_curl {
    __typeof__(curl_global_init) *_Nonnull global_init;
    __typeof__(curl_version_info) *_Nonnull version_info;
    __typeof__(curl_easy_init) *_Nonnull easy_init;
    __typeof__(curl_easy_cleanup) *_Nonnull easy_cleanup;
    __typeof__(curl_easy_strerror) *_Nonnull easy_strerror;
    __typeof__(curl_slist_append) *_Nonnull slist_append;
    __typeof__(curl_slist_free_all) *_Nonnull slist_free_all;
    __typeof__(curl_multi_init) *_Nonnull multi_init;
    __typeof__(curl_multi_cleanup) *_Nonnull multi_cleanup;
    __typeof__(curl_multi_add_handle) *_Nonnull multi_add_handle;
    __typeof__(curl_multi_remove_handle) *_Nonnull multi_remove_handle;
    __typeof__(curl_multi_perform) *_Nonnull multi_perform;
    __typeof__(curl_multi_poll) *_Nonnull multi_poll;
    __typeof__(curl_multi_info_read) *_Nonnull multi_info_read;
    uintptr_t easy_setopt;   // __typeof__(curl_easy_setopt) *
    uintptr_t easy_getinfo;  // __typeof__(curl_easy_getinfo) *
    uintptr_t multi_setopt;  // __typeof__(curl_multi_setopt) *
};

/// The table of `library` (a handle from dlopen); `*missing` names the first function it lacks
/// (the table is then incomplete and must not be used), else is set to NULL.
static inline struct landmark_curl landmark_curl_resolve(void *_Nonnull library, const char *_Nullable *_Nonnull missing) {
    struct landmark_curl table;
    memset(&table, 0, sizeof table);  // never used when incomplete, but not left undefined
    *missing = NULL;
    LANDMARK_RESOLVE(global_init, curl_global_init);
    LANDMARK_RESOLVE(version_info, curl_version_info);
    LANDMARK_RESOLVE(easy_init, curl_easy_init);
    LANDMARK_RESOLVE(easy_cleanup, curl_easy_cleanup);
    LANDMARK_RESOLVE(easy_strerror, curl_easy_strerror);
    LANDMARK_RESOLVE(slist_append, curl_slist_append);
    LANDMARK_RESOLVE(slist_free_all, curl_slist_free_all);
    LANDMARK_RESOLVE(multi_init, curl_multi_init);
    LANDMARK_RESOLVE(multi_cleanup, curl_multi_cleanup);
    LANDMARK_RESOLVE(multi_add_handle, curl_multi_add_handle);
    LANDMARK_RESOLVE(multi_remove_handle, curl_multi_remove_handle);
    LANDMARK_RESOLVE(multi_perform, curl_multi_perform);
    LANDMARK_RESOLVE(multi_poll, curl_multi_poll);
    LANDMARK_RESOLVE(multi_info_read, curl_multi_info_read);
    LANDMARK_RESOLVE(easy_setopt, curl_easy_setopt);
    LANDMARK_RESOLVE(easy_getinfo, curl_easy_getinfo);
    LANDMARK_RESOLVE(multi_setopt, curl_multi_setopt);
    return table;
}

#define LANDMARK_CURL_EASY_SETOPT(setopt) ((__typeof__(curl_easy_setopt) *)(setopt))

static inline CURLcode landmark_curl_easy_setopt_long(uintptr_t setopt, CURL *handle, CURLoption option, long value) {
    return LANDMARK_CURL_EASY_SETOPT(setopt)(handle, option, value);
}
static inline CURLcode landmark_curl_easy_setopt_pointer(uintptr_t setopt, CURL *handle, CURLoption option, const void *value) {
    return LANDMARK_CURL_EASY_SETOPT(setopt)(handle, option, value);
}
static inline CURLcode landmark_curl_easy_setopt_off_t(uintptr_t setopt, CURL *handle, CURLoption option, curl_off_t value) {
    return LANDMARK_CURL_EASY_SETOPT(setopt)(handle, option, value);
}
typedef size_t (*landmark_curl_data_callback)(char *data, size_t size, size_t count, void *context);
static inline CURLcode landmark_curl_easy_setopt_data_callback(uintptr_t setopt, CURL *handle, CURLoption option, landmark_curl_data_callback callback) {
    return LANDMARK_CURL_EASY_SETOPT(setopt)(handle, option, callback);
}
typedef CURLcode (*landmark_curl_ssl_ctx_callback)(CURL *handle, void *sslContext, void *context);
static inline CURLcode landmark_curl_easy_setopt_ssl_ctx_callback(uintptr_t setopt, CURL *handle, landmark_curl_ssl_ctx_callback callback) {
    return LANDMARK_CURL_EASY_SETOPT(setopt)(handle, CURLOPT_SSL_CTX_FUNCTION, callback);
}
#undef LANDMARK_CURL_EASY_SETOPT
static inline CURLcode landmark_curl_easy_getinfo_long(uintptr_t getinfo, CURL *handle, CURLINFO info, long *value) {
    return ((__typeof__(curl_easy_getinfo) *)getinfo)(handle, info, value);
}
static inline CURLMcode landmark_curl_multi_setopt_long(uintptr_t setopt, CURLM *handle, CURLMoption option, long value) {
    return ((__typeof__(curl_multi_setopt) *)setopt)(handle, option, value);
}
static inline curl_version_info_data *landmark_curl_version_info(struct landmark_curl curl) {
    return curl.version_info(CURLVERSION_NOW);
}
