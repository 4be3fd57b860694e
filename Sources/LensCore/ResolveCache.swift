import Foundation

/// The last backdrop and label raster a ``SceneResolver`` made, kept so that the frames of one
/// scene (an animation, a sweep that moves the glass) paint them once. Holding the same arrays
/// also lets the backends see at a glance that nothing changed (``FrameReuse``). Thread-safe.
public final class ResolveCache: @unchecked Sendable {
    struct BackdropKey: Equatable {
        var width: Int
        var height: Int
        var scale: Double
        var layers: [BackgroundLayer]
    }

    struct LabelKey: Equatable {
        var width: Int
        var height: Int
        var scale: Double
        var label: LabelLayer?
    }

    private let lock = NSLock()
    private var backdrop: (key: BackdropKey, pixels: [UInt32])?
    private var label: (key: LabelKey, words: [UInt32])?
    private var presence: (words: [UInt32], presence: LabelPresence)?

    public init() {}

    func backdrop(for key: BackdropKey) -> [UInt32]? {
        lock.withLock { backdrop?.key == key ? backdrop?.pixels : nil }
    }

    func labelWords(for key: LabelKey) -> [UInt32]? {
        lock.withLock { label?.key == key ? label?.words : nil }
    }

    /// Where the label words have coverage, computed once per label raster.
    func presence(of words: [UInt32], make: () -> LabelPresence) -> LabelPresence {
        if let presence = lock.withLock({ presence?.words == words ? presence?.presence : nil }) { return presence }
        let made = make()
        lock.withLock { presence = (words, made) }
        return made
    }

    func store(_ key: BackdropKey, _ pixels: [UInt32]) -> [UInt32] {
        lock.withLock { backdrop = (key, pixels) }
        return pixels
    }

    func store(_ key: LabelKey, _ words: [UInt32]) -> [UInt32] {
        lock.withLock { label = (key, words) }
        return words
    }
}

extension Optional where Wrapped == ResolveCache {
    /// Stores through the cache when there is one; hands the value back either way.
    func store(_ key: ResolveCache.BackdropKey, _ pixels: [UInt32]) -> [UInt32] {
        self?.store(key, pixels) ?? pixels
    }

    func store(_ key: ResolveCache.LabelKey, _ words: [UInt32]) -> [UInt32] {
        self?.store(key, words) ?? words
    }
}
