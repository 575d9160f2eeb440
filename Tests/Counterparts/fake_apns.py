#!/usr/bin/env python3
"""A fake APNs provider API for the tests: HTTP/2 over TLS on 127.0.0.1, checking what Apple
checks and answering as scripted per device token.

    fake_apns.py keygen KEY.p8
        writes a new PKCS#8 EC P-256 private key, as Apple's .p8 files are.

    fake_apns.py serve --dir DIR --key KEY.p8 --key-id ID --team-id ID --topic TOPIC
                       [--script SCRIPT.json] [--delay SECONDS]
        makes a test CA and a server certificate for 127.0.0.1 (DIR/ca.pem), listens on a free
        port, prints "port N" on stdout once ready, and logs every request as one JSON line to
        DIR/requests.ndjson.

Checks (the answers APNs gives): POST on /3/device/<hex token>; `authorization: bearer <JWT>`
whose header is {"alg":"ES256","kid":ID}, claims {"iss":TEAM,"iat":N}, signature valid for the
key's public half, iat at most an hour old (403 ExpiredProviderToken) and not in the future;
apns-topic = TOPIC; apns-push-type present; apns-priority 5 or 10; apns-expiration an integer;
apns-id a UUID; apns-collapse-id at most 64 bytes; a JSON object body with "aps", at most
4096 bytes.

SCRIPT.json: {"tokens": {"<hex>": ["503", "503", "200"]}, "default": ["200"]}. Each request
for a token takes the next action; the last one repeats. Actions: "200", "410" (Unregistered),
"400:BadDeviceToken", "400:DeviceTokenNotForTopic", "403:ExpiredProviderToken" (the JWT used is
expired from then on, for every token), "429", "500", "503", "goaway" (GOAWAY refusing this
stream, then the connection closes), "drop" (the connection is cut without an answer).
"""

import argparse
import asyncio
import base64
import datetime
import ipaddress
import json
import signal
import os
import re
import ssl
import sys
import time
import uuid

from cryptography import x509
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from cryptography.x509.oid import NameOID
import h2.config
import h2.connection
import h2.events
import h2.errors

REASONS = {
    "400": "BadRequest", "403": "Forbidden", "410": "Unregistered", "429": "TooManyRequests",
    "500": "InternalServerError", "503": "ServiceUnavailable",
}
UUID_PATTERN = re.compile(r"^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$")
TOKEN_PATTERN = re.compile(r"^[0-9a-fA-F]+$")


def b64url_decode(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def keygen(path):
    key = ec.generate_private_key(ec.SECP256R1())
    pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                            serialization.NoEncryption())
    with open(path, "wb") as f:
        f.write(pem)
    os.chmod(path, 0o600)


def make_certificates(directory):
    """A CA and a server certificate for 127.0.0.1 and localhost signed by it."""
    now = datetime.datetime.now(datetime.timezone.utc)
    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca_name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "LandmarkNear test CA")])
    ca = (x509.CertificateBuilder().subject_name(ca_name).issuer_name(ca_name)
          .public_key(ca_key.public_key()).serial_number(x509.random_serial_number())
          .not_valid_before(now - datetime.timedelta(minutes=5)).not_valid_after(now + datetime.timedelta(days=1))
          .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
          .add_extension(x509.KeyUsage(digital_signature=True, key_cert_sign=True, crl_sign=True,
                                       content_commitment=False, key_encipherment=False, data_encipherment=False,
                                       key_agreement=False, encipher_only=False, decipher_only=False), critical=True)
          .add_extension(x509.SubjectKeyIdentifier.from_public_key(ca_key.public_key()), critical=False)
          .sign(ca_key, hashes.SHA256()))
    server_key = ec.generate_private_key(ec.SECP256R1())
    server = (x509.CertificateBuilder()
              .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "127.0.0.1")]))
              .issuer_name(ca_name).public_key(server_key.public_key()).serial_number(x509.random_serial_number())
              .not_valid_before(now - datetime.timedelta(minutes=5)).not_valid_after(now + datetime.timedelta(days=1))
              .add_extension(x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1")),
                                                          x509.DNSName("localhost")]), critical=False)
              .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
              .add_extension(x509.ExtendedKeyUsage([x509.oid.ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
              .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(ca_key.public_key()), critical=False)
              .sign(ca_key, hashes.SHA256()))
    paths = {name: os.path.join(directory, name) for name in ("ca.pem", "server.pem", "server.key")}
    with open(paths["ca.pem"], "wb") as f:
        f.write(ca.public_bytes(serialization.Encoding.PEM))
    with open(paths["server.pem"], "wb") as f:
        f.write(server.public_bytes(serialization.Encoding.PEM))
    with open(paths["server.key"], "wb") as f:
        f.write(server_key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                         serialization.NoEncryption()))
    return paths


class FakeAPNs:
    def __init__(self, args):
        with open(args.key, "rb") as f:
            self.public_key = serialization.load_pem_private_key(f.read(), password=None).public_key()
        self.key_id = args.key_id
        self.team_id = args.team_id
        self.topic = args.topic
        self.delay = args.delay
        script = {}
        if args.script:
            with open(args.script) as f:
                script = json.load(f)
        self.scripts = {token.lower(): list(actions) for token, actions in script.get("tokens", {}).items()}
        self.default = list(script.get("default", ["200"]))
        self.expired_jwts = set()
        self.log = open(os.path.join(args.dir, "requests.ndjson"), "a", buffering=1)
        self.connections = 0

    def next_action(self, token):
        actions = self.scripts.get(token)
        if not actions:
            return self.default[0] if self.default else "200"
        return actions.pop(0) if len(actions) > 1 else actions[0]

    def check_jwt(self, authorization):
        """(status, reason, decoded) for the authorization header."""
        if authorization is None:
            return 403, "MissingProviderToken", None
        if not authorization.startswith("bearer "):
            return 403, "InvalidProviderToken", None
        token = authorization[len("bearer "):]
        parts = token.split(".")
        if len(parts) != 3:
            return 403, "InvalidProviderToken", None
        try:
            header = json.loads(b64url_decode(parts[0]))
            claims = json.loads(b64url_decode(parts[1]))
            signature = b64url_decode(parts[2])
        except (ValueError, json.JSONDecodeError):
            return 403, "InvalidProviderToken", None
        decoded = {"header": header, "claims": claims, "raw": token}
        if header != {"alg": "ES256", "kid": self.key_id}:
            return 403, "InvalidProviderToken", decoded
        if set(claims) != {"iss", "iat"} or claims.get("iss") != self.team_id or not isinstance(claims.get("iat"), int):
            return 403, "InvalidProviderToken", decoded
        if len(signature) != 64:
            return 403, "InvalidProviderToken", decoded
        der = encode_dss_signature(int.from_bytes(signature[:32], "big"), int.from_bytes(signature[32:], "big"))
        try:
            self.public_key.verify(der, (parts[0] + "." + parts[1]).encode(), ec.ECDSA(hashes.SHA256()))
        except InvalidSignature:
            return 403, "InvalidProviderToken", decoded
        now = time.time()
        if claims["iat"] > now + 60:
            return 403, "InvalidProviderToken", decoded
        if now - claims["iat"] > 3600 or token in self.expired_jwts:
            return 403, "ExpiredProviderToken", decoded
        return 200, None, decoded

    def check(self, headers, body):
        """(status, reason, token, jwt) for a request, before the script has its say."""
        method = headers.get(":method")
        path = headers.get(":path", "")
        match = re.fullmatch(r"/3/device/([^/?]+)", path)
        token = match.group(1).lower() if match else None
        status, reason, jwt = self.check_jwt(headers.get("authorization"))
        if method != "POST":
            return 405, "MethodNotAllowed", token, jwt
        if token is None:
            return 404, "BadPath", token, jwt
        if status != 200:
            return status, reason, token, jwt
        if not TOKEN_PATTERN.match(token) or len(token) % 2:
            return 400, "BadDeviceToken", token, jwt
        if "apns-topic" not in headers:
            return 400, "MissingTopic", token, jwt
        if headers["apns-topic"] != self.topic:
            return 400, "TopicDisallowed", token, jwt
        if headers.get("apns-push-type") not in ("alert", "background", "voip", "complication", "fileprovider", "mdm",
                                                   "liveactivity", "location", "pushtotalk", "widgets", "controls"):
            return 400, "InvalidPushType", token, jwt
        if headers.get("apns-priority", "10") not in ("5", "10", "1"):
            return 400, "BadPriority", token, jwt
        if "apns-expiration" in headers and not re.fullmatch(r"[0-9]+", headers["apns-expiration"]):
            return 400, "BadExpirationDate", token, jwt
        if "apns-id" in headers and not UUID_PATTERN.match(headers["apns-id"]):
            return 400, "BadMessageId", token, jwt
        if len(headers.get("apns-collapse-id", "").encode()) > 64:
            return 400, "BadCollapseId", token, jwt
        if len(body) > 4096:
            return 413, "PayloadTooLarge", token, jwt
        if not body:
            return 400, "PayloadEmpty", token, jwt
        try:
            payload = json.loads(body)
        except (ValueError, UnicodeDecodeError):
            return 400, "BadPayload", token, jwt
        if not isinstance(payload, dict) or not isinstance(payload.get("aps"), dict):
            return 400, "BadPayload", token, jwt
        return 200, None, token, jwt

    def record(self, connection, stream_id, headers, body, status, reason, action, jwt):
        shown = {k: v for k, v in headers.items() if k != "authorization"}
        entry = {"time": time.time(), "connection": connection, "stream": stream_id,
                 "path": headers.get(":path"), "token": None, "headers": shown,
                 "jwt": jwt, "body": body.decode("utf-8", "replace"), "status": status, "reason": reason,
                 "action": action}
        match = re.fullmatch(r"/3/device/([^/?]+)", headers.get(":path", ""))
        if match:
            entry["token"] = match.group(1).lower()
        self.log.write(json.dumps(entry, ensure_ascii=False) + "\n")


class Connection(asyncio.Protocol):
    def __init__(self, server):
        self.server = server
        server.connections += 1
        self.number = server.connections
        self.h2 = h2.connection.H2Connection(h2.config.H2Configuration(client_side=False, header_encoding="utf-8"))
        self.streams = {}
        self.transport = None
        self.closed = False

    def connection_made(self, transport):
        self.transport = transport
        self.h2.initiate_connection()
        self.flush()

    def flush(self):
        if not self.closed:
            self.transport.write(self.h2.data_to_send())

    def connection_lost(self, exc):
        self.closed = True

    def data_received(self, data):
        try:
            events = self.h2.receive_data(data)
        except Exception:
            self.transport.close()
            return
        for event in events:
            if isinstance(event, h2.events.RequestReceived):
                self.streams[event.stream_id] = (dict(event.headers), bytearray())
            elif isinstance(event, h2.events.DataReceived):
                if event.stream_id in self.streams:
                    self.streams[event.stream_id][1].extend(event.data)
                self.h2.acknowledge_received_data(event.flow_controlled_length, event.stream_id)
            elif isinstance(event, h2.events.StreamEnded):
                asyncio.ensure_future(self.respond(event.stream_id))
            elif isinstance(event, h2.events.ConnectionTerminated):
                self.transport.close()
        self.flush()

    async def respond(self, stream_id):
        headers, body = self.streams.pop(stream_id, ({}, bytearray()))
        body = bytes(body)
        server = self.server
        status, reason, token, jwt = server.check(headers, body)
        action = None
        if status == 200:
            action = server.next_action(token)
            if action in ("goaway", "drop"):
                server.record(self.number, stream_id, headers, body, None, None, action, jwt)
                if action == "goaway":
                    self.h2.close_connection(error_code=h2.errors.ErrorCodes.NO_ERROR,
                                             additional_data=b'{"reason":"Shutdown"}',
                                             last_stream_id=max(0, stream_id - 2))
                    self.flush()
                    self.transport.close()
                else:
                    self.transport.abort()
                self.closed = True
                return
            code, _, named = action.partition(":")
            status = int(code)
            reason = None if status == 200 else (named or REASONS.get(code, "BadRequest"))
            if reason == "ExpiredProviderToken" and jwt:
                server.expired_jwts.add(jwt["raw"])
        if server.delay:
            await asyncio.sleep(server.delay)
        if self.closed:
            return
        server.record(self.number, stream_id, headers, body, status, reason, action, jwt)
        apns_id = headers.get("apns-id") or str(uuid.uuid4())
        response_headers = [(":status", str(status)), ("apns-id", apns_id)]
        data = b""
        if status != 200:
            answer = {"reason": reason}
            if status == 410:
                answer["timestamp"] = int(time.time() * 1000)
            data = json.dumps(answer).encode()
            response_headers.append(("content-type", "application/json"))
            response_headers.append(("content-length", str(len(data))))
        try:
            self.h2.send_headers(stream_id, response_headers, end_stream=not data)
            if data:
                self.h2.send_data(stream_id, data, end_stream=True)
        except Exception:
            return
        self.flush()


async def serve(args):
    os.makedirs(args.dir, exist_ok=True)
    paths = make_certificates(args.dir)
    server = FakeAPNs(args)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    context.load_cert_chain(paths["server.pem"], paths["server.key"])
    context.set_alpn_protocols(["h2"])
    loop = asyncio.get_running_loop()
    listener = await loop.create_server(lambda: Connection(server), "127.0.0.1", args.port, ssl=context)
    port = listener.sockets[0].getsockname()[1]
    print(f"port {port}", flush=True)
    async with listener:
        await listener.serve_forever()


def main():
    # A test runner spawning many children at once lets each inherit the others' pipe ends; a
    # server that lives on would then keep another test's output pipe open. Close them all.
    os.closerange(3, os.sysconf("SC_OPEN_MAX"))
    # A parent that blocks signals (a test runner's thread) passes its mask on: take SIGTERM again.
    signal.pthread_sigmask(signal.SIG_UNBLOCK, signal.valid_signals())
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    key = commands.add_parser("keygen")
    key.add_argument("path")
    run = commands.add_parser("serve")
    run.add_argument("--dir", required=True)
    run.add_argument("--key", required=True)
    run.add_argument("--key-id", required=True)
    run.add_argument("--team-id", required=True)
    run.add_argument("--topic", required=True)
    run.add_argument("--script")
    run.add_argument("--delay", type=float, default=0)
    run.add_argument("--port", type=int, default=0)
    args = parser.parse_args()
    if args.command == "keygen":
        keygen(args.path)
        return
    try:
        asyncio.run(serve(args))
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
