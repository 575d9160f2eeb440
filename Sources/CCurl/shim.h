// libcurl (Debian: libcurl4-openssl-dev, built with nghttp2 for HTTP/2).
// curl_easy_setopt, curl_multi_setopt and curl_easy_getinfo are variadic, which Swift cannot
// call: these typed wrappers pass each kind of argument through.
#include <curl/curl.h>

static inline CURLcode landmark_curl_easy_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode landmark_curl_easy_setopt_pointer(CURL *handle, CURLoption option, const void *value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode landmark_curl_easy_setopt_off_t(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}
typedef size_t (*landmark_curl_data_callback)(char *data, size_t size, size_t count, void *context);
static inline CURLcode landmark_curl_easy_setopt_data_callback(CURL *handle, CURLoption option, landmark_curl_data_callback callback) {
    return curl_easy_setopt(handle, option, callback);
}
typedef CURLcode (*landmark_curl_ssl_ctx_callback)(CURL *handle, void *sslContext, void *context);
static inline CURLcode landmark_curl_easy_setopt_ssl_ctx_callback(CURL *handle, landmark_curl_ssl_ctx_callback callback) {
    return curl_easy_setopt(handle, CURLOPT_SSL_CTX_FUNCTION, callback);
}
static inline CURLcode landmark_curl_easy_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}
static inline CURLcode landmark_curl_easy_getinfo_pointer(CURL *handle, CURLINFO info, void **value) {
    return curl_easy_getinfo(handle, info, value);
}
static inline CURLMcode landmark_curl_multi_setopt_long(CURLM *handle, CURLMoption option, long value) {
    return curl_multi_setopt(handle, option, value);
}
static inline curl_version_info_data *landmark_curl_version_info(void) {
    return curl_version_info(CURLVERSION_NOW);
}
