#ifndef LANDMARK_NEAR_CNATS_SHIM_H
#define LANDMARK_NEAR_CNATS_SHIM_H
// libnats 3.4 (Debian: libnats-dev), the NATS JetStream client of `publish` and `serve --nats`,
// opened on first use rather than linked (SharedLibrary.swift says why). Its functions are
// reached through the table below, each field declared with the type of the function in
// <nats/nats.h> (`__typeof__` of a declaration does not link to it), filled by dlsym
// (LANDMARK_RESOLVE, ../CShared/landmark_resolve.h). None of the functions called is variadic.
#include "../CShared/landmark_resolve.h"
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <nats/nats.h>

// Fields carry the functions' own names: `NATSLibrary.functions.js_PullSubscribe(...)` reads as
// the library's documentation does.
struct landmark_nats {
    __typeof__(nats_GetVersion) *_Nonnull nats_GetVersion;
    __typeof__(natsStatus_GetText) *_Nonnull natsStatus_GetText;
    __typeof__(nats_GetLastError) *_Nonnull nats_GetLastError;
    __typeof__(nats_CloseAndWait) *_Nonnull nats_CloseAndWait;
    __typeof__(natsOptions_Create) *_Nonnull natsOptions_Create;
    __typeof__(natsOptions_Destroy) *_Nonnull natsOptions_Destroy;
    __typeof__(natsOptions_SetServers) *_Nonnull natsOptions_SetServers;
    __typeof__(natsOptions_SetName) *_Nonnull natsOptions_SetName;
    __typeof__(natsOptions_SetMaxReconnect) *_Nonnull natsOptions_SetMaxReconnect;
    __typeof__(natsOptions_SetCustomReconnectDelay) *_Nonnull natsOptions_SetCustomReconnectDelay;
    __typeof__(natsOptions_SetRetryOnFailedConnect) *_Nonnull natsOptions_SetRetryOnFailedConnect;
    __typeof__(natsOptions_SetDisconnectedCB) *_Nonnull natsOptions_SetDisconnectedCB;
    __typeof__(natsOptions_SetReconnectedCB) *_Nonnull natsOptions_SetReconnectedCB;
    __typeof__(natsOptions_SetClosedCB) *_Nonnull natsOptions_SetClosedCB;
    __typeof__(natsOptions_SetTimeout) *_Nonnull natsOptions_SetTimeout;
    __typeof__(natsOptions_SetReconnectBufSize) *_Nonnull natsOptions_SetReconnectBufSize;
    __typeof__(natsOptions_SetPingInterval) *_Nonnull natsOptions_SetPingInterval;
    __typeof__(natsOptions_SetMaxPingsOut) *_Nonnull natsOptions_SetMaxPingsOut;
    __typeof__(natsConnection_Connect) *_Nonnull natsConnection_Connect;
    __typeof__(natsConnection_Close) *_Nonnull natsConnection_Close;
    __typeof__(natsConnection_Destroy) *_Nonnull natsConnection_Destroy;
    __typeof__(natsConnection_GetConnectedUrl) *_Nonnull natsConnection_GetConnectedUrl;
    __typeof__(natsConnection_Status) *_Nonnull natsConnection_Status;
    __typeof__(natsConnection_JetStream) *_Nonnull natsConnection_JetStream;
    __typeof__(jsCtx_Destroy) *_Nonnull jsCtx_Destroy;
    __typeof__(jsOptions_Init) *_Nonnull jsOptions_Init;
    __typeof__(jsStreamConfig_Init) *_Nonnull jsStreamConfig_Init;
    __typeof__(js_AddStream) *_Nonnull js_AddStream;
    __typeof__(js_GetStreamInfo) *_Nonnull js_GetStreamInfo;
    __typeof__(jsStreamInfo_Destroy) *_Nonnull jsStreamInfo_Destroy;
    __typeof__(jsConsumerConfig_Init) *_Nonnull jsConsumerConfig_Init;
    __typeof__(js_AddConsumer) *_Nonnull js_AddConsumer;
    __typeof__(js_DeleteConsumer) *_Nonnull js_DeleteConsumer;
    __typeof__(jsConsumerInfo_Destroy) *_Nonnull jsConsumerInfo_Destroy;
    __typeof__(jsSubOptions_Init) *_Nonnull jsSubOptions_Init;
    __typeof__(js_PullSubscribe) *_Nonnull js_PullSubscribe;
    __typeof__(natsSubscription_Fetch) *_Nonnull natsSubscription_Fetch;
    __typeof__(jsFetchRequest_Init) *_Nonnull jsFetchRequest_Init;
    __typeof__(natsSubscription_FetchRequest) *_Nonnull natsSubscription_FetchRequest;
    __typeof__(natsSubscription_Destroy) *_Nonnull natsSubscription_Destroy;
    __typeof__(natsMsgList_Destroy) *_Nonnull natsMsgList_Destroy;
    __typeof__(natsMsg_GetSubject) *_Nonnull natsMsg_GetSubject;
    __typeof__(natsMsg_GetData) *_Nonnull natsMsg_GetData;
    __typeof__(natsMsg_GetDataLength) *_Nonnull natsMsg_GetDataLength;
    __typeof__(natsMsg_GetMetaData) *_Nonnull natsMsg_GetMetaData;
    __typeof__(natsMsg_GetReply) *_Nonnull natsMsg_GetReply;
    __typeof__(jsMsgMetaData_Destroy) *_Nonnull jsMsgMetaData_Destroy;
    __typeof__(natsMsg_Ack) *_Nonnull natsMsg_Ack;
    __typeof__(natsMsg_Destroy) *_Nonnull natsMsg_Destroy;
    __typeof__(natsMsg_Create) *_Nonnull natsMsg_Create;
    __typeof__(natsMsgHeader_Set) *_Nonnull natsMsgHeader_Set;
    __typeof__(natsMsgHeader_Get) *_Nonnull natsMsgHeader_Get;
    __typeof__(jsPubOptions_Init) *_Nonnull jsPubOptions_Init;
    __typeof__(js_PublishMsgAsync) *_Nonnull js_PublishMsgAsync;
    __typeof__(js_PublishAsyncComplete) *_Nonnull js_PublishAsyncComplete;
    __typeof__(js_PublishAsyncGetPendingList) *_Nonnull js_PublishAsyncGetPendingList;
};

/// The table of `library` (a handle from dlopen); `*missing` names the first function it lacks
/// (the table is then incomplete and must not be used), else is set to NULL.
static inline struct landmark_nats landmark_nats_resolve(void *_Nonnull library, const char *_Nullable *_Nonnull missing) {
    struct landmark_nats table;
    memset(&table, 0, sizeof table);  // never used when incomplete, but not left undefined
    *missing = NULL;
    LANDMARK_RESOLVE(nats_GetVersion, nats_GetVersion);
    LANDMARK_RESOLVE(natsStatus_GetText, natsStatus_GetText);
    LANDMARK_RESOLVE(nats_GetLastError, nats_GetLastError);
    LANDMARK_RESOLVE(nats_CloseAndWait, nats_CloseAndWait);
    LANDMARK_RESOLVE(natsOptions_Create, natsOptions_Create);
    LANDMARK_RESOLVE(natsOptions_Destroy, natsOptions_Destroy);
    LANDMARK_RESOLVE(natsOptions_SetServers, natsOptions_SetServers);
    LANDMARK_RESOLVE(natsOptions_SetName, natsOptions_SetName);
    LANDMARK_RESOLVE(natsOptions_SetMaxReconnect, natsOptions_SetMaxReconnect);
    LANDMARK_RESOLVE(natsOptions_SetCustomReconnectDelay, natsOptions_SetCustomReconnectDelay);
    LANDMARK_RESOLVE(natsOptions_SetRetryOnFailedConnect, natsOptions_SetRetryOnFailedConnect);
    LANDMARK_RESOLVE(natsOptions_SetDisconnectedCB, natsOptions_SetDisconnectedCB);
    LANDMARK_RESOLVE(natsOptions_SetReconnectedCB, natsOptions_SetReconnectedCB);
    LANDMARK_RESOLVE(natsOptions_SetClosedCB, natsOptions_SetClosedCB);
    LANDMARK_RESOLVE(natsOptions_SetTimeout, natsOptions_SetTimeout);
    LANDMARK_RESOLVE(natsOptions_SetReconnectBufSize, natsOptions_SetReconnectBufSize);
    LANDMARK_RESOLVE(natsOptions_SetPingInterval, natsOptions_SetPingInterval);
    LANDMARK_RESOLVE(natsOptions_SetMaxPingsOut, natsOptions_SetMaxPingsOut);
    LANDMARK_RESOLVE(natsConnection_Connect, natsConnection_Connect);
    LANDMARK_RESOLVE(natsConnection_Close, natsConnection_Close);
    LANDMARK_RESOLVE(natsConnection_Destroy, natsConnection_Destroy);
    LANDMARK_RESOLVE(natsConnection_GetConnectedUrl, natsConnection_GetConnectedUrl);
    LANDMARK_RESOLVE(natsConnection_Status, natsConnection_Status);
    LANDMARK_RESOLVE(natsConnection_JetStream, natsConnection_JetStream);
    LANDMARK_RESOLVE(jsCtx_Destroy, jsCtx_Destroy);
    LANDMARK_RESOLVE(jsOptions_Init, jsOptions_Init);
    LANDMARK_RESOLVE(jsStreamConfig_Init, jsStreamConfig_Init);
    LANDMARK_RESOLVE(js_AddStream, js_AddStream);
    LANDMARK_RESOLVE(js_GetStreamInfo, js_GetStreamInfo);
    LANDMARK_RESOLVE(jsStreamInfo_Destroy, jsStreamInfo_Destroy);
    LANDMARK_RESOLVE(jsConsumerConfig_Init, jsConsumerConfig_Init);
    LANDMARK_RESOLVE(js_AddConsumer, js_AddConsumer);
    LANDMARK_RESOLVE(js_DeleteConsumer, js_DeleteConsumer);
    LANDMARK_RESOLVE(jsConsumerInfo_Destroy, jsConsumerInfo_Destroy);
    LANDMARK_RESOLVE(jsSubOptions_Init, jsSubOptions_Init);
    LANDMARK_RESOLVE(js_PullSubscribe, js_PullSubscribe);
    LANDMARK_RESOLVE(natsSubscription_Fetch, natsSubscription_Fetch);
    LANDMARK_RESOLVE(jsFetchRequest_Init, jsFetchRequest_Init);
    LANDMARK_RESOLVE(natsSubscription_FetchRequest, natsSubscription_FetchRequest);
    LANDMARK_RESOLVE(natsSubscription_Destroy, natsSubscription_Destroy);
    LANDMARK_RESOLVE(natsMsgList_Destroy, natsMsgList_Destroy);
    LANDMARK_RESOLVE(natsMsg_GetSubject, natsMsg_GetSubject);
    LANDMARK_RESOLVE(natsMsg_GetData, natsMsg_GetData);
    LANDMARK_RESOLVE(natsMsg_GetDataLength, natsMsg_GetDataLength);
    LANDMARK_RESOLVE(natsMsg_GetMetaData, natsMsg_GetMetaData);
    LANDMARK_RESOLVE(natsMsg_GetReply, natsMsg_GetReply);
    LANDMARK_RESOLVE(jsMsgMetaData_Destroy, jsMsgMetaData_Destroy);
    LANDMARK_RESOLVE(natsMsg_Ack, natsMsg_Ack);
    LANDMARK_RESOLVE(natsMsg_Destroy, natsMsg_Destroy);
    LANDMARK_RESOLVE(natsMsg_Create, natsMsg_Create);
    LANDMARK_RESOLVE(natsMsgHeader_Set, natsMsgHeader_Set);
    LANDMARK_RESOLVE(natsMsgHeader_Get, natsMsgHeader_Get);
    LANDMARK_RESOLVE(jsPubOptions_Init, jsPubOptions_Init);
    LANDMARK_RESOLVE(js_PublishMsgAsync, js_PublishMsgAsync);
    LANDMARK_RESOLVE(js_PublishAsyncComplete, js_PublishAsyncComplete);
    LANDMARK_RESOLVE(js_PublishAsyncGetPendingList, js_PublishAsyncGetPendingList);
    return table;
}

#endif
