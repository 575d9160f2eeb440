@_spi(Inlining) import LandmarkNearCore

/// The APNs provider authentication token: a JWT signed ES256 with the team's `.p8` key,
/// header `{"alg":"ES256","kid":KEY_ID}`, claims `{"iss":TEAM_ID,"iat":SECONDS}` (docs/reference/delivery.md).
/// Apple refuses tokens older than an hour and renewals more often than every 20 minutes, so a
/// token is reused and renewed once it is 40 minutes old, or at once after `ExpiredProviderToken`.
///
///     let tokens = ProviderToken(key: key, keyID: "ABC123DEFG", teamID: "DEF123GHIJ")
///     let jwt = try tokens.current(now: 1_777_636_800)   // the same string for 40 minutes
final class ProviderToken {
    static let renewalAge: Int64 = 40 * 60

    private let key: APNsSigningKey
    private let encodedHeader: String
    private let teamID: String
    private var cached: (jwt: String, issuedAt: Int64)?

    init(key: APNsSigningKey, keyID: String, teamID: String) {
        self.key = key
        self.teamID = teamID
        var header = #"{"alg":"ES256","kid":"#
        JSONWriter.appendString(keyID, to: &header)
        header += "}"
        encodedHeader = Base64URL.encode(Array(header.utf8))
    }

    /// The token to send now: the cached one while younger than 40 minutes, else a new one.
    func current(now: Int64) throws(DeliveryError) -> String {
        if let cached, now - cached.issuedAt < Self.renewalAge, now >= cached.issuedAt { return cached.jwt }
        return try renew(now: now)
    }

    /// When the current token was issued (nil before the first).
    var issuedAt: Int64? { cached?.issuedAt }

    /// Counts the tokens signed: tells a request sent with an older token from one sent with
    /// the current one, even when both were signed in the same second.
    private(set) var generation = 0

    /// Signs a new token at `now` and keeps it.
    @discardableResult
    func renew(now: Int64) throws(DeliveryError) -> String {
        var claims = #"{"iss":"#
        JSONWriter.appendString(teamID, to: &claims)
        claims += ",\"iat\":\(now)}"
        let signingInput = encodedHeader + "." + Base64URL.encode(Array(claims.utf8))
        let jwt = signingInput + "." + Base64URL.encode(try key.sign(Array(signingInput.utf8)))
        cached = (jwt, now)
        generation += 1
        return jwt
    }

    /// Forget the token (after `ExpiredProviderToken`): the next `current` signs a new one.
    func invalidate() { cached = nil }
}
