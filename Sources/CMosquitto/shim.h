#ifndef LANDMARK_NEAR_CMOSQUITTO_SHIM_H
#define LANDMARK_NEAR_CMOSQUITTO_SHIM_H
// libmosquitto 2.0 (Debian: libmosquitto-dev), the MQTT client of `serve --mqtt`, opened on first
// use rather than linked (SharedLibrary.swift says why). Its functions are reached through the
// table below, each field declared with the type of the function in <mosquitto.h> (`__typeof__`
// of a declaration does not link to it), filled by dlsym (LANDMARK_RESOLVE,
// ../CShared/landmark_resolve.h). None of the functions serve calls is variadic.
#include "../CShared/landmark_resolve.h"
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <mosquitto.h>
#include <mqtt_protocol.h>

struct landmark_mosquitto {
    __typeof__(mosquitto_lib_init) *_Nonnull lib_init;
    __typeof__(mosquitto_lib_version) *_Nonnull lib_version;
    __typeof__(mosquitto_new) *_Nonnull new_client;
    __typeof__(mosquitto_destroy) *_Nonnull destroy;
    __typeof__(mosquitto_threaded_set) *_Nonnull threaded_set;
    __typeof__(mosquitto_user_data_set) *_Nonnull user_data_set;
    __typeof__(mosquitto_int_option) *_Nonnull int_option;
    __typeof__(mosquitto_username_pw_set) *_Nonnull username_pw_set;
    __typeof__(mosquitto_tls_set) *_Nonnull tls_set;
    __typeof__(mosquitto_connect_bind_v5) *_Nonnull connect_bind_v5;
    __typeof__(mosquitto_reconnect) *_Nonnull reconnect;
    __typeof__(mosquitto_disconnect) *_Nonnull disconnect;
    __typeof__(mosquitto_subscribe_v5) *_Nonnull subscribe_v5;
    __typeof__(mosquitto_publish) *_Nonnull publish;
    __typeof__(mosquitto_loop_read) *_Nonnull loop_read;
    __typeof__(mosquitto_loop_write) *_Nonnull loop_write;
    __typeof__(mosquitto_loop_misc) *_Nonnull loop_misc;
    __typeof__(mosquitto_socket) *_Nonnull socket;
    __typeof__(mosquitto_want_write) *_Nonnull want_write;
    __typeof__(mosquitto_connect_v5_callback_set) *_Nonnull connect_v5_callback_set;
    __typeof__(mosquitto_disconnect_v5_callback_set) *_Nonnull disconnect_v5_callback_set;
    __typeof__(mosquitto_subscribe_v5_callback_set) *_Nonnull subscribe_v5_callback_set;
    __typeof__(mosquitto_message_callback_set) *_Nonnull message_callback_set;
    __typeof__(mosquitto_publish_v5_callback_set) *_Nonnull publish_v5_callback_set;
    __typeof__(mosquitto_log_callback_set) *_Nonnull log_callback_set;
    __typeof__(mosquitto_property_add_int32) *_Nonnull property_add_int32;
    __typeof__(mosquitto_property_free_all) *_Nonnull property_free_all;
    __typeof__(mosquitto_strerror) *_Nonnull strerror;
    __typeof__(mosquitto_reason_string) *_Nonnull reason_string;
    __typeof__(mosquitto_sub_topic_check) *_Nonnull sub_topic_check;
    __typeof__(mosquitto_pub_topic_check) *_Nonnull pub_topic_check;
};

/// The table of `library` (a handle from dlopen); `*missing` names the first function it lacks
/// (the table is then incomplete and must not be used), else is set to NULL.
static inline struct landmark_mosquitto landmark_mosquitto_resolve(void *_Nonnull library, const char *_Nullable *_Nonnull missing) {
    struct landmark_mosquitto table;
    memset(&table, 0, sizeof table);  // never used when incomplete, but not left undefined
    *missing = NULL;
    LANDMARK_RESOLVE(lib_init, mosquitto_lib_init);
    LANDMARK_RESOLVE(lib_version, mosquitto_lib_version);
    LANDMARK_RESOLVE(new_client, mosquitto_new);
    LANDMARK_RESOLVE(destroy, mosquitto_destroy);
    LANDMARK_RESOLVE(threaded_set, mosquitto_threaded_set);
    LANDMARK_RESOLVE(user_data_set, mosquitto_user_data_set);
    LANDMARK_RESOLVE(int_option, mosquitto_int_option);
    LANDMARK_RESOLVE(username_pw_set, mosquitto_username_pw_set);
    LANDMARK_RESOLVE(tls_set, mosquitto_tls_set);
    LANDMARK_RESOLVE(connect_bind_v5, mosquitto_connect_bind_v5);
    LANDMARK_RESOLVE(reconnect, mosquitto_reconnect);
    LANDMARK_RESOLVE(disconnect, mosquitto_disconnect);
    LANDMARK_RESOLVE(subscribe_v5, mosquitto_subscribe_v5);
    LANDMARK_RESOLVE(publish, mosquitto_publish);
    LANDMARK_RESOLVE(loop_read, mosquitto_loop_read);
    LANDMARK_RESOLVE(loop_write, mosquitto_loop_write);
    LANDMARK_RESOLVE(loop_misc, mosquitto_loop_misc);
    LANDMARK_RESOLVE(socket, mosquitto_socket);
    LANDMARK_RESOLVE(want_write, mosquitto_want_write);
    LANDMARK_RESOLVE(connect_v5_callback_set, mosquitto_connect_v5_callback_set);
    LANDMARK_RESOLVE(disconnect_v5_callback_set, mosquitto_disconnect_v5_callback_set);
    LANDMARK_RESOLVE(subscribe_v5_callback_set, mosquitto_subscribe_v5_callback_set);
    LANDMARK_RESOLVE(message_callback_set, mosquitto_message_callback_set);
    LANDMARK_RESOLVE(publish_v5_callback_set, mosquitto_publish_v5_callback_set);
    LANDMARK_RESOLVE(log_callback_set, mosquitto_log_callback_set);
    LANDMARK_RESOLVE(property_add_int32, mosquitto_property_add_int32);
    LANDMARK_RESOLVE(property_free_all, mosquitto_property_free_all);
    LANDMARK_RESOLVE(strerror, mosquitto_strerror);
    LANDMARK_RESOLVE(reason_string, mosquitto_reason_string);
    LANDMARK_RESOLVE(sub_topic_check, mosquitto_sub_topic_check);
    LANDMARK_RESOLVE(pub_topic_check, mosquitto_pub_topic_check);
    return table;
}

#endif
