/// The known name a mistyped one most likely meant, for "did you mean …" in errors about
/// subcommands, options, examples, presets and scene keys.
package enum NameSuggestion {
    /// The name in `candidates` closest to `typed` by edit distance (insertions, deletions,
    /// substitutions and swaps of neighbours, ignoring case), or one that `typed` begins; nil
    /// when none is close enough to be the likely meaning: at most a third of the typed length
    /// away, and never less than 1 or more than 3 edits, nor every character of it.
    package static func closest(to typed: String, among candidates: [String]) -> String? {
        let needle = Array(typed.lowercased())
        guard !needle.isEmpty else { return nil }
        let limit = min(3, max(1, needle.count / 3))
        var best: (name: String, distance: Int)?
        for candidate in candidates where candidate != typed {
            let distance = editDistance(needle, Array(candidate.lowercased()))
            if distance <= limit && distance < needle.count && distance < (best?.distance ?? .max) {
                best = (candidate, distance)
            }
        }
        if let best { return best.name }
        // A prefix long enough to mean one name only ("rend" for "render").
        guard needle.count >= 3 else { return nil }
        let prefix = typed.lowercased()
        let extending = candidates.filter { $0.lowercased().hasPrefix(prefix) }
        return extending.count == 1 ? extending[0] : nil
    }

    /// `; did you mean 'NAME'?` for the closest name, or nothing, to append to an error.
    package static func clause(for typed: String, among candidates: [String], quote: String = "'") -> String {
        closest(to: typed, among: candidates).map { "; did you mean \(quote)\($0)\(quote)?" } ?? ""
    }

    /// The optimal string alignment distance between `a` and `b`.
    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        var before = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
                if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], before[j - 2] + 1)
                }
            }
            (before, previous, current) = (previous, current, before)
        }
        return previous[b.count]
    }
}
