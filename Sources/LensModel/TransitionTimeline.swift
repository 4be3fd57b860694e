import Foundation

/// What a transition does to one glass it names.
enum GlassVisibilityChange: Equatable {
    /// It brings the glass in: a materialisation, a cut in, or a morph into it.
    case shows
    /// It takes the glass away: a dematerialisation, a cut out, or a morph out of it.
    case hides
}

extension GlassTransition {
    /// The glass this transition shows or hides, by id, with the key naming each: a morph hides
    /// `glass` and shows `to`; a press does neither.
    var visibilityChanges: [(key: String, id: String, change: GlassVisibilityChange)] {
        switch kind {
        case .morph: [("glass", glass, .hides)] + (to.map { [("to", $0, .shows)] } ?? [])
        case .materialize, .appear: [("glass", glass, .shows)]
        case .dematerialize, .disappear: [("glass", glass, .hides)]
        case .press: []
        }
    }

    /// The foreground layers a morph carries, by key, each list with the glass it goes with: its
    /// content with the end state, its start content with the start (only a morph has either).
    var carriedLayers: [(key: String, id: String, layers: [Int])] {
        [("content", to ?? glass, content), ("startContent", glass, startContent)]
    }
}

extension [GlassTransition] {
    /// For each glass id, the indices of the transitions that show or hide it, in time order
    /// (validation holds that no two of them share a time, and that they take turns).
    var timelines: [String: [Int]] {
        var timelines: [String: [Int]] = [:]
        for (index, transition) in enumerated() {
            for change in transition.visibilityChanges { timelines[change.id, default: []].append(index) }
        }
        return timelines.mapValues { indices in indices.sorted { (self[$0].time, $0) < (self[$1].time, $1) } }
    }

    /// The transition that decides each glass at `t`: the last of its timeline that has begun, or
    /// its first while none has (the glass waits in the state that one starts from).
    func deciding(at t: Double) -> [String: Int] {
        timelines.mapValues { indices in indices.last { self[$0].time <= t } ?? indices[0] }
    }
}
