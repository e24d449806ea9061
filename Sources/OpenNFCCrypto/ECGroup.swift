/// An elliptic curve group over a prime field, held by libcrypto (`EC_GROUP`), with the point and scalar operations
/// that ECDH, ECDSA key generation and PACE's Generic Mapping need (ICAO Doc 9303 Part 11 §4.4.3.3.1; BSI TR-03110-3
/// §A.3.4.1: G̃ = s·G + H). Points go in and out in the uncompressed form `04 ‖ X ‖ Y` (SEC 1 §2.3.3), scalars as
/// unsigned big-endian bytes. All arithmetic is libcrypto's (`EC_POINT_mul`, `EC_POINT_add`).
package final class ECGroup: @unchecked Sendable {
    /// The curve's name when it is a named curve (`brainpoolP256r1`), or nil for explicit parameters.
    package let name: String?
    let group: OpaquePointer
    let lib: LibCryptoPK
    /// The length in bytes of a field element (a coordinate).
    package let coordinateLength: Int
    /// The length in bytes of the group order (a scalar, an ECDSA `r` or `s`).
    package let orderLength: Int

    /// The named curve `name` in OpenSSL's short names (``NamedCurve``).
    package convenience init(_ curve: NamedCurve) throws(CryptoError) {
        let lib = try LibCryptoPK.load()
        let nid = lib.nameToNID(curve.rawValue)
        guard nid != 0, let g = lib.groupByNID(nid) else {
            throw CryptoError(.libraryUnavailable, "libcrypto does not know the curve \(curve.rawValue)")
        }
        try self.init(group: g, name: curve.rawValue, lib: lib)
    }

    /// A curve y² = x³ + ax + b over GF(p) with base point `generator` (uncompressed) of order `order` and
    /// `cofactor`: explicit domain parameters, as Chip Authentication keys carry them (BSI TR-03110-3 §A.2.1.2).
    package convenience init(
        p: [UInt8], a: [UInt8], b: [UInt8], generator: [UInt8], order: [UInt8], cofactor: [UInt8]
    ) throws(CryptoError) {
        let lib = try LibCryptoPK.load()
        let ctx = lib.bnCtxNew()
        defer { lib.bnCtxFree(ctx) }
        let bp = try lib.bignum(p)
        defer { lib.bnFree(bp) }
        let ba = try lib.bignum(a)
        defer { lib.bnFree(ba) }
        let bb = try lib.bignum(b)
        defer { lib.bnFree(bb) }
        let bn = try lib.bignum(order)
        defer { lib.bnFree(bn) }
        let bh = try lib.bignum(cofactor)
        defer { lib.bnFree(bh) }
        guard let g = lib.groupFromCurve(bp, ba, bb, ctx) else {
            throw CryptoError(.operationFailed, "libcrypto refused the explicit curve parameters (p, a, b)")
        }
        guard let point = lib.pointNew(g) else {
            lib.groupFree(g)
            throw CryptoError(.operationFailed, "EC_POINT_new failed")
        }
        defer { lib.pointFree(point) }
        let decoded = generator.withUnsafeBufferPointer { lib.oct2Point(g, point, $0.baseAddress, $0.count, ctx) }
        guard decoded == 1, lib.groupSetGenerator(g, point, bn, bh) == 1 else {
            lib.groupFree(g)
            throw CryptoError(.operationFailed, "the explicit generator is not a point of the curve")
        }
        try self.init(group: g, name: nil, lib: lib)
    }

    private init(group: OpaquePointer, name: String?, lib: LibCryptoPK) throws(CryptoError) {
        self.group = group
        self.name = name
        self.lib = lib
        coordinateLength = (Int(lib.groupDegree(group)) + 7) / 8
        guard let order = lib.groupOrder(group) else {
            lib.groupFree(group)
            throw CryptoError(.operationFailed, "EC_GROUP_get0_order failed")
        }
        orderLength = (Int(lib.bnNumBits(order)) + 7) / 8
    }

    deinit { lib.groupFree(group) }

    /// The standard base point G, uncompressed.
    package var generator: [UInt8] {
        get throws(CryptoError) {
            guard let g = lib.groupGenerator(group) else { throw CryptoError(.operationFailed, "the group has no G") }
            return try encode(g)
        }
    }

    /// The group order n, big-endian, ``orderLength`` bytes.
    package var order: [UInt8] {
        get throws(CryptoError) {
            guard let n = lib.groupOrder(group) else { throw CryptoError(.operationFailed, "the group has no order") }
            return try lib.bytes(n, length: orderLength)
        }
    }

    /// The domain parameters p, a, b (each ``coordinateLength`` bytes), as an explicit-parameter key lists them.
    package func curveParameters() throws(CryptoError) -> (p: [UInt8], a: [UInt8], b: [UInt8]) {
        let p = lib.bnNew()
        let a = lib.bnNew()
        let b = lib.bnNew()
        defer {
            lib.bnFree(p)
            lib.bnFree(a)
            lib.bnFree(b)
        }
        guard let p, let a, let b, lib.groupGetCurve(group, p, a, b, nil) == 1 else {
            throw CryptoError(.operationFailed, "EC_GROUP_get_curve failed")
        }
        return (
            try lib.bytes(p, length: coordinateLength), try lib.bytes(a, length: coordinateLength),
            try lib.bytes(b, length: coordinateLength)
        )
    }

    /// Whether `point` (uncompressed) is a point of this curve other than infinity.
    package func isValidPoint(_ point: [UInt8]) -> Bool {
        guard let p = try? decode(point) else { return false }
        defer { lib.pointFree(p) }
        return lib.pointOnCurve(group, p, nil) == 1 && lib.pointAtInfinity(group, p) == 0
    }

    /// k·P for the scalar `k` and the point `point` (the standard generator when nil).
    package func multiply(_ k: [UInt8], _ point: [UInt8]? = nil) throws(CryptoError) -> [UInt8] {
        let scalar = try lib.bignum(k)
        defer { lib.bnFree(scalar) }
        guard let r = lib.pointNew(group) else { throw CryptoError(.operationFailed, "EC_POINT_new failed") }
        defer { lib.pointFree(r) }
        let ok: Int32
        if let point {
            let q = try decode(point)
            defer { lib.pointFree(q) }
            ok = lib.pointMul(group, r, nil, q, scalar, nil)
        } else {
            ok = lib.pointMul(group, r, scalar, nil, nil, nil)
        }
        guard ok == 1 else { throw CryptoError(.operationFailed, "EC_POINT_mul failed") }
        return try encode(r)
    }

    /// P + Q.
    package func add(_ p: [UInt8], _ q: [UInt8]) throws(CryptoError) -> [UInt8] {
        let a = try decode(p)
        defer { lib.pointFree(a) }
        let b = try decode(q)
        defer { lib.pointFree(b) }
        guard let r = lib.pointNew(group) else { throw CryptoError(.operationFailed, "EC_POINT_new failed") }
        defer { lib.pointFree(r) }
        guard lib.pointAdd(group, r, a, b, nil) == 1 else { throw CryptoError(.operationFailed, "EC_POINT_add failed") }
        return try encode(r)
    }

    /// PACE Generic Mapping for ECDH (ICAO Doc 9303 Part 11 §4.4.3.3.1): the new generator G̃ = s·G + H from the
    /// nonce `s` and the mapping's shared point `H`.
    package func genericMapping(nonce s: [UInt8], sharedPoint h: [UInt8]) throws(CryptoError) -> [UInt8] {
        try add(try multiply(s), h)
    }

    /// ECDH (BSI TR-03111 §4.3.1 ECKA-DH): the x-coordinate of `privateKey`·`publicKey`, ``coordinateLength`` bytes.
    /// Throws when the peer's point is not on the curve.
    package func sharedSecret(privateKey: [UInt8], publicKey: [UInt8]) throws(CryptoError) -> [UInt8] {
        guard isValidPoint(publicKey) else {
            throw CryptoError(.invalidDataLength, "the peer's public key is not a point of the curve")
        }
        let point = try multiply(privateKey, publicKey)
        return Array(point[1...coordinateLength])
    }

    /// The same as ``sharedSecret(privateKey:publicKey:)`` but the whole point (PACE GM's H).
    package func sharedPoint(privateKey: [UInt8], publicKey: [UInt8]) throws(CryptoError) -> [UInt8] {
        guard isValidPoint(publicKey) else {
            throw CryptoError(.invalidDataLength, "the peer's public key is not a point of the curve")
        }
        return try multiply(privateKey, publicKey)
    }

    /// A key pair on this curve with base point `generator` (the standard G when nil; PACE's ephemeral keys use G̃):
    /// a private scalar 0 < k < n drawn from `random` by rejection, and k·generator.
    package func generateKeyPair(generator: [UInt8]? = nil, random: any RandomSource) throws(CryptoError)
        -> (privateKey: [UInt8], publicKey: [UInt8])
    {
        let n = try order
        let topBits = (n.first ?? 0xFF).bitWidth - (n.first ?? 0xFF).leadingZeroBitCount
        let mask: UInt8 = topBits >= 8 ? 0xFF : UInt8((1 << topBits) - 1)
        for _ in 0..<1000 {
            var k = random.bytes(orderLength)
            k[0] &= mask
            if k.allSatisfy({ $0 == 0 }) || !k.lexicographicallyPrecedes(n) { continue }
            return (k, try multiply(k, generator))
        }
        throw CryptoError(.operationFailed, "the random source gave no scalar below the order in 1000 draws")
    }

    func decode(_ point: [UInt8]) throws(CryptoError) -> OpaquePointer {
        guard point.count == 1 + 2 * coordinateLength, point.first == 0x04 else {
            throw CryptoError(
                .invalidDataLength,
                "an uncompressed point on this curve is 04 and \(2 * coordinateLength) bytes, not \(point.count) bytes")
        }
        guard let p = lib.pointNew(group) else { throw CryptoError(.operationFailed, "EC_POINT_new failed") }
        let ok = point.withUnsafeBufferPointer { lib.oct2Point(group, p, $0.baseAddress, $0.count, nil) }
        guard ok == 1 else {
            lib.pointFree(p)
            throw CryptoError(.invalidDataLength, "the bytes are not a point of the curve")
        }
        return p
    }

    func encode(_ p: OpaquePointer) throws(CryptoError) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 1 + 2 * coordinateLength)
        // POINT_CONVERSION_UNCOMPRESSED = 4.
        let n = out.withUnsafeMutableBufferPointer { lib.point2Oct(group, p, 4, $0.baseAddress, $0.count, nil) }
        guard n == out.count else { throw CryptoError(.operationFailed, "EC_POINT_point2oct failed (infinity?)") }
        return out
    }
}

/// The named curves of ICAO Doc 9303 and BSI TR-03110-3 (Table 4, standardized domain parameters), by OpenSSL's
/// short name.
package enum NamedCurve: String, Sendable, Hashable, CaseIterable {
    case prime192v1, secp224r1, prime256v1, secp384r1, secp521r1
    case brainpoolP192r1, brainpoolP224r1, brainpoolP256r1, brainpoolP320r1, brainpoolP384r1, brainpoolP512r1

    /// The length of a scalar (r, s, the private key) in bytes.
    package var scalarLength: Int {
        switch self {
        case .prime192v1, .brainpoolP192r1: 24
        case .secp224r1, .brainpoolP224r1: 28
        case .prime256v1, .brainpoolP256r1: 32
        case .brainpoolP320r1: 40
        case .secp384r1, .brainpoolP384r1: 48
        case .brainpoolP512r1: 64
        case .secp521r1: 66
        }
    }

    /// The curve's object identifier, dotted (RFC 5480 §2.1.1.1; RFC 5639 §4.1 for brainpool).
    package var oid: String {
        switch self {
        case .prime192v1: "1.2.840.10045.3.1.1"
        case .secp224r1: "1.3.132.0.33"
        case .prime256v1: "1.2.840.10045.3.1.7"
        case .secp384r1: "1.3.132.0.34"
        case .secp521r1: "1.3.132.0.35"
        case .brainpoolP192r1: "1.3.36.3.3.2.8.1.1.3"
        case .brainpoolP224r1: "1.3.36.3.3.2.8.1.1.5"
        case .brainpoolP256r1: "1.3.36.3.3.2.8.1.1.7"
        case .brainpoolP320r1: "1.3.36.3.3.2.8.1.1.9"
        case .brainpoolP384r1: "1.3.36.3.3.2.8.1.1.11"
        case .brainpoolP512r1: "1.3.36.3.3.2.8.1.1.13"
        }
    }

    /// The curve named by a dotted OID, or nil.
    package init?(oid: String) {
        guard let c = Self.allCases.first(where: { $0.oid == oid }) else { return nil }
        self = c
    }

    /// The curve of a standardized PACE/CA domain parameter identifier (BSI TR-03110-3 Table 4; ICAO Doc 9303 Part 11
    /// §9.5.1): 8 P-192, 9 brainpoolP192r1, 10 P-224, 11 brainpoolP224r1, 12 P-256, 13 brainpoolP256r1,
    /// 14 brainpoolP320r1, 15 P-384, 16 brainpoolP384r1, 17 brainpoolP512r1, 18 P-521; nil for the rest.
    package init?(standardizedParameterID id: Int) {
        let table: [Int: NamedCurve] = [
            8: .prime192v1, 9: .brainpoolP192r1, 10: .secp224r1, 11: .brainpoolP224r1, 12: .prime256v1,
            13: .brainpoolP256r1, 14: .brainpoolP320r1, 15: .secp384r1, 16: .brainpoolP384r1, 17: .brainpoolP512r1,
            18: .secp521r1,
        ]
        guard let c = table[id] else { return nil }
        self = c
    }

    /// The standardized domain parameter identifier of this curve (the inverse of ``init(standardizedParameterID:)``).
    package var standardizedParameterID: Int {
        switch self {
        case .prime192v1: 8
        case .brainpoolP192r1: 9
        case .secp224r1: 10
        case .brainpoolP224r1: 11
        case .prime256v1: 12
        case .brainpoolP256r1: 13
        case .brainpoolP320r1: 14
        case .secp384r1: 15
        case .brainpoolP384r1: 16
        case .brainpoolP512r1: 17
        case .secp521r1: 18
        }
    }
}
