import Foundation
import OpenNFCBytes
import OpenNFCSimulation

extension Commands {
    static let passport = Command(
        name: "passport",
        abstract: "Read and verify ePassports and ID cards (ICAO 9303); make the TEST PKI of virtual ones.",
        discussion: """
            A virtual passport or ID card is made with `opennfc tag new --chip passport|id-card` (docs/PASSPORT.md).
            """,
        subcommands: [passportRead, passportPKI]
    )

    static let passportPKI = Command(
        name: "pki",
        abstract: "Make a TEST CSCA and Document Signer (certificates and private keys) to sign virtual documents.",
        discussion: """
            Writes into DIR (created if missing): \(EMRTDTestPKI.FileNames.cscaCertificate) (self-signed CSCA, DER), \
            \(EMRTDTestPKI.FileNames.cscaPrivateKey) (its PKCS #8 private key, DER), \
            \(EMRTDTestPKI.FileNames.documentSignerCertificate) (the Document Signer, signed by the CSCA), \
            \(EMRTDTestPKI.FileNames.documentSignerPrivateKey) and \(EMRTDTestPKI.FileNames.readme). Every \
            certificate subject and file name says TEST: these keys sign virtual documents only. ECDSA P-256 with \
            SHA-256; the CSCA is valid 15 years and the Document Signer 10, both from a year ago. Give the folder to \
            `tag new --pki DIR` to sign documents under it, and the CSCA certificate to a reader as its trust anchor.
            """,
        options: [
            .init(name: "output", short: "o", value: "<dir>", help: "The folder to write the PKI to."),
            .init(name: "country", value: "<AAA>", help: "Issuing state, 3 letters as in the MRZ (default UTO)."),
        ],
        run: { inv in
            guard let dir = inv.value("output") else { throw CLIError.usage("missing -o <dir>") }
            let country = (inv.value("country") ?? "UTO").uppercased()
            guard (1...3).contains(country.count), country.allSatisfy({ ("A"..."Z").contains($0) || $0 == "<" }) else {
                throw CLIError.usage("--country \(country): give the issuing state as in the MRZ, 1–3 letters")
            }
            let pki: EMRTDTestPKI
            do {
                pki = try EMRTDTestPKI.generate(country: country, today: EMRTDTag.today())
            } catch {
                throw CLIError.failure("cannot make the PKI: \(error)")
            }
            do {
                try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
            } catch {
                throw CLIError.failure("cannot create the folder '\(dir)': \(error.localizedDescription)")
            }
            let names = EMRTDTestPKI.FileNames.self
            let readme = """
                TEST PKI made by opennfc passport pki for virtual eMRTDs (ICAO Doc 9303 Part 12).
                These are TEST keys: they sign virtual passports and ID cards only and prove nothing about a real
                document. Keep them away from anything that trusts real CSCAs.

                \(names.cscaCertificate)  CSCA certificate (self-signed, DER); give it to a reader as trust anchor
                \(names.cscaPrivateKey)  CSCA private key (PKCS #8, DER)
                \(names.documentSignerCertificate)  Document Signer certificate (signed by the CSCA, DER)
                \(names.documentSignerPrivateKey)  Document Signer private key (PKCS #8, DER)

                """
            for (name, bytes) in [
                (names.cscaCertificate, pki.cscaCertificate), (names.cscaPrivateKey, pki.cscaPrivateKey),
                (names.documentSignerCertificate, pki.documentSignerCertificate),
                (names.documentSignerPrivateKey, pki.documentSignerPrivateKey), (names.readme, Array(readme.utf8)),
            ] {
                try InputFile.write(bytes, to: dir + "/" + name)
            }
            Console.err("Wrote the TEST CSCA and Document Signer of \(country) to \(dir)/\n")
            return 0
        }
    )
}
