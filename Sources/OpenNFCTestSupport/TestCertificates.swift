package import Foundation
internal import OpenNFCBytes

/// Certificates made at test time with the `openssl` command-line tool (EC P-256, valid two days): a CA, a broker
/// certificate for `localhost` and `127.0.0.1` signed by it, a client certificate (CN `station`) signed by it, the
/// client key encrypted with a passphrase, and a second, unrelated CA that signed nothing here.
package struct TestCertificates {
    package static let openssl = "/usr/bin/openssl"
    package static var available: Bool { FileManager.default.isExecutableFile(atPath: openssl) }

    package let dir: URL
    package var ca: String { path("ca.pem") }
    package var otherCA: String { path("other-ca.pem") }
    package var serverCertificate: String { path("server.pem") }
    package var serverKey: String { path("server.key") }
    /// The broker's certificate signed by ``otherCA`` (a broker the station's `--ca-file` does not vouch for).
    package var strangerCertificate: String { path("stranger.pem") }
    package var strangerKey: String { path("stranger.key") }
    package var clientCertificate: String { path("client.pem") }
    package var clientKey: String { path("client.key") }
    /// ``clientKey`` encrypted (PKCS#8, AES-256) with ``passphrase``.
    package var encryptedClientKey: String { path("client-encrypted.key") }
    package let passphrase = "correct horse battery staple"

    package func path(_ name: String) -> String { dir.appendingPathComponent(name).path }

    package init(in dir: URL) throws {
        self.dir = dir
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try makeCA("ca", name: "OpenNFC Test CA")
        try makeCA("other-ca", name: "Some Other CA")
        let server = "subjectAltName=DNS:localhost,IP:127.0.0.1\nextendedKeyUsage=serverAuth\n"
        try makeLeaf("server", name: "localhost", signer: "ca", extensions: server)
        try makeLeaf("stranger", name: "localhost", signer: "other-ca", extensions: server)
        try makeLeaf("client", name: "station", signer: "ca", extensions: "extendedKeyUsage=clientAuth\n")
        try run([
            "pkey", "-in", clientKey, "-aes256", "-passout", "pass:\(passphrase)", "-out", encryptedClientKey,
        ])
    }

    private func run(_ arguments: [String]) throws {
        let r = try Tool.run(Self.openssl, arguments)
        guard r.status == 0 else { throw TestFailure("openssl \(arguments.first ?? "") failed: \(r.stderr)") }
    }

    private func makeCA(_ file: String, name: String) throws {
        try run([
            "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout",
            path("\(file).key"), "-out", path("\(file).pem"), "-days", "2", "-subj", "/CN=\(name)",
        ])
    }

    private func makeLeaf(_ file: String, name: String, signer: String, extensions: String) throws {
        let ext = path("\(file).ext")
        try FileAccess.write(Array(extensions.utf8), to: ext)
        try run([
            "req", "-new", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout",
            path("\(file).key"), "-out", path("\(file).csr"), "-subj", "/CN=\(name)",
        ])
        try run([
            "x509", "-req", "-in", path("\(file).csr"), "-CA", path("\(signer).pem"), "-CAkey", path("\(signer).key"),
            "-CAcreateserial", "-out", path("\(file).pem"), "-days", "2", "-extfile", ext,
        ])
    }
}
