internal import OpenNFCBytes
package import OpenNFCRF

/// Writes a saved image back to a Type 2 chip's user memory: what `opennfc restore` does (T2T §5.2 WRITE; the CC
/// rules of T2T §6.1 and NTAG21x §8.5.6).
///
/// | Step | Commands | Why |
/// |---|---|---|
/// | 1 | WRITE page 4 = `03 00 FE 00` (when any page other than 4 changes) | the tag now reads as an empty NDEF tag |
/// | 2 | WRITE each other changed user page, in page order | unchanged pages are not written (fewer frames, less wear) |
/// | 3 | WRITE page 4 (its saved value, even when unchanged, if step 1 overwrote it) | the saved content appears in one atomic page write |
/// | 4 | WRITE page 3 (CC), when it differs and only sets bits | the CC is one-time programmable: bits can be set, never cleared |
///
/// So a tag pulled away part way reads as its old content, an empty NDEF tag, or the restored content.
/// Lock bytes and configuration pages (password, AUTH0) are not written: locking is irreversible and a password
/// cannot be read back from the source chip.
package final class Type2MemoryWriter {
    let link: Type2Link

    package init(target: RFTarget?, frontend: any RFFrontend) {
        self.link = Type2Link(frontend: frontend, target: target)
    }

    /// The pages that would be written, in order, to turn `current` into `wanted` over `userPages` (+ the CC).
    /// Throws ``TagError/Code/readOnly`` when the CC would need a bit cleared.
    package func plan(
        current: [[UInt8]?], wanted: [[UInt8]], userPages: ClosedRange<Int>
    ) throws(TagError) -> [(page: Int, bytes: [UInt8])] {
        let changed = userPages.filter { p in current[p] != wanted[p] }
        var steps: [(page: Int, bytes: [UInt8])] = []
        let emptyNDEF: [UInt8] = [0x03, 0x00, 0xFE, 0x00]
        let first = userPages.lowerBound
        if changed == [first] || changed.isEmpty {
            steps += changed.map { ($0, wanted[$0]) }
        } else {
            // More than one page changes: the tag reads as empty NDEF while the data goes in, and the first page
            // (where a reader starts the TLV walk) gets its saved value last.
            let others = changed.filter { $0 != first }.map { ($0, wanted[$0]) }
            if wanted[first] == emptyNDEF {
                if current[first] != emptyNDEF { steps.append((first, emptyNDEF)) }
                steps += others
            } else {
                if current[first] != emptyNDEF { steps.append((first, emptyNDEF)) }
                steps += others
                steps.append((first, wanted[first]))
            }
        }
        if let cc = current[3], cc != wanted[3] {
            let merged = zip(cc, wanted[3]).map { $0 | $1 }
            guard merged == wanted[3] else {
                throw TagError(
                    .readOnly,
                    "the tag's capability container \(Hex.encode(cc, separator: " ")) cannot become "
                        + "\(Hex.encode(wanted[3], separator: " ")): its bits can be set but never cleared")
            }
            steps.append((3, wanted[3]))
        }
        return steps
    }

    /// Performs ``plan(current:wanted:userPages:)``; returns the number of pages written.
    @discardableResult
    package func restore(current: [[UInt8]?], wanted: [[UInt8]], userPages: ClosedRange<Int>) throws(TagError) -> Int {
        let steps = try plan(current: current, wanted: wanted, userPages: userPages)
        for s in steps { try link.write(page: s.page, s.bytes) }
        return steps.count
    }
}
