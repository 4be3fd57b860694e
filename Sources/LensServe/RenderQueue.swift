import Foundation

/// Renders one frame at a time, newest wins: each client has at most one render waiting, and a
/// newer one from the same client replaces it (its request is answered "superseded"); clients
/// asking for the same frame share one render; the last results are kept for those who ask again.
/// Nothing grows with the requests: at most ``waitingLimit`` renders wait, the rest are told
/// the server is busy. Its thread runs until ``stop()``.
package final class RenderQueue<Outcome: Sendable>: @unchecked Sendable {
    /// What a request gets back.
    package enum Answer: Sendable {
        case rendered(Outcome)
        /// A newer request of the same client took this one's place before it started.
        case superseded
        /// ``waitingLimit`` renders are already waiting.
        case busy
    }

    /// Renders waiting at most (one per client).
    package let waitingLimit: Int
    /// Results kept for requests that repeat one.
    package let keptResults: Int

    private final class Job {
        let key: String
        let work: () -> Outcome
        var clients: Set<String>
        var outcome: Outcome?
        init(key: String, client: String, work: @escaping () -> Outcome) {
            self.key = key
            self.clients = [client]
            self.work = work
        }
    }

    private let condition = NSCondition()
    private var waiting: [Job] = []
    private var running: Job?
    private var kept: [(key: String, outcome: Outcome)] = []
    private var stopped = false

    /// A queue holding at most `waitingLimit` waiting renders (fewer than the server's
    /// connections, so that a full queue answers busy rather than holding every connection).
    package init(waitingLimit: Int = 16, keptResults: Int = 8) {
        self.waitingLimit = waitingLimit
        self.keptResults = keptResults
        let thread = Thread { self.serve() }
        thread.name = "liquidlens render queue"
        thread.start()
    }

    /// The frame `key` for `client`, rendered by `work` unless it is kept, running or waiting;
    /// blocks until it is done, or superseded by the client's next request.
    package func render(key: String, client: String, work: @escaping () -> Outcome) -> Answer {
        condition.lock()
        defer { condition.unlock() }
        withdrawWaiting(client, except: key)
        if let found = kept.first(where: { $0.key == key }) { return .rendered(found.outcome) }
        let job: Job
        if let shared = running?.key == key ? running : waiting.first(where: { $0.key == key }) {
            shared.clients.insert(client)
            job = shared
        } else {
            guard waiting.count < waitingLimit else { return .busy }
            job = Job(key: key, client: client, work: work)
            waiting.append(job)
        }
        condition.broadcast()
        while job.outcome == nil && !stopped {
            if job !== running && !waiting.contains(where: { $0 === job }) { return .superseded }
            if !job.clients.contains(client) { return .superseded }
            condition.wait()
        }
        return job.outcome.map { .rendered($0) } ?? .busy
    }

    /// What the queue holds now: the key of the render under way, and each waiting render's key
    /// with the clients that wait for it. For tests that must know a request has arrived before
    /// they send the next, instead of sleeping and hoping.
    package var snapshot: (running: String?, waiting: [(key: String, clients: Set<String>)]) {
        condition.lock()
        defer { condition.unlock() }
        return (running?.key, waiting.map { ($0.key, $0.clients) })
    }

    /// Withdraws `client` from the renders it waits for that have not started (its newest edit
    /// could not be rendered at all, an invalid scene): they are answered superseded.
    package func withdraw(_ client: String) {
        condition.lock()
        withdrawWaiting(client, except: nil)
        condition.unlock()
    }

    /// Takes `client` off every waiting render but `key`'s, drops those no one waits for and
    /// wakes their requests; the lock is held.
    private func withdrawWaiting(_ client: String, except key: String?) {
        for job in waiting where job.clients.contains(client) && job.key != key {
            job.clients.remove(client)
        }
        waiting.removeAll { $0.clients.isEmpty }
        condition.broadcast()
    }

    /// Ends the worker once the render under way is done; waiting requests are answered busy.
    package func stop() {
        condition.lock()
        stopped = true
        waiting.removeAll()
        condition.broadcast()
        condition.unlock()
    }

    private func serve() {
        condition.lock()
        while !stopped {
            guard !waiting.isEmpty else {
                condition.wait()
                continue
            }
            let job = waiting.removeFirst()
            running = job
            condition.unlock()
            let outcome = job.work()
            condition.lock()
            job.outcome = outcome
            running = nil
            kept.removeAll { $0.key == job.key }
            kept.append((job.key, outcome))
            if kept.count > keptResults { kept.removeFirst() }
            condition.broadcast()
        }
        condition.unlock()
    }
}
