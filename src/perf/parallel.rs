//! Two pieces of work at once, for the phases of a large graph that leave a core idle.

use std::sync::Mutex;

/// Runs `a` on a second thread while this thread runs `b`, when `parallel` is set; otherwise,
/// and when no thread can be started (resource limits), `b` then `a` on this thread. A panic
/// in `a` is raised again here.
///
/// `a` must not print: the binary holds the stdout and stderr locks while it runs, so a
/// print from the second thread would wait for them forever (the library never prints).
pub(crate) fn alongside<A: Send, B>(
    parallel: bool,
    a: impl FnOnce() -> A + Send,
    b: impl FnOnce() -> B,
) -> (A, B) {
    if !parallel {
        let rb = b();
        return (a(), rb);
    }
    // `a` waits in a slot rather than in the thread's closure, so that it is still here if
    // the thread cannot be started (a failed spawn drops its closure).
    let slot = Mutex::new(Some(a));
    let take = || slot.lock().ok().and_then(|mut a| a.take());
    std::thread::scope(|scope| {
        let worker = std::thread::Builder::new()
            .spawn_scoped(scope, || take().map(|a| a()))
            .ok();
        let rb = b();
        let ra = match worker {
            Some(h) => h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)),
            None => take().map(|a| a()),
        };
        match ra {
            Some(ra) => (ra, rb),
            None => unreachable!("`a` is taken once, by the thread or here"),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_run_in_either_mode() {
        for parallel in [false, true] {
            let (a, b) = alongside(parallel, || (1..=100u64).sum::<u64>(), || "here");
            assert_eq!((a, b), (5050, "here"));
        }
    }

    #[test]
    fn b_runs_on_this_thread() {
        let me = std::thread::current().id();
        let (_, b) = alongside(true, || (), || std::thread::current().id());
        assert_eq!(b, me);
    }
}
