extension EventLoop: TaskExecutor {
    /// Runs a task's job on the loop thread: for a task that prefers this loop
    /// (`Task(executorPreference:)`), which then runs there, with the default actors it calls.
    ///
    /// Why: a task that talks to the loop's connections (a session's sends) otherwise wakes a
    /// thread of Swift's pool for each answer the loop gives it, and the loop for each request;
    /// on the loop, an answer resumes it in the loop's next turn with no thread woken. Such a
    /// task must not block: it holds up every connection of the loop while it runs.
    ///
    /// A job enqueued on the loop thread runs in the next turn; from another thread it joins
    /// the loop's queue (`execute`). Once the loop stops, jobs go to Swift's global executor, so
    /// that no task is left suspended for good.
    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        if inEventLoop {
            // While the loop stops (its connections closing resume their waiters) a job put
            // off to the next turn would be dropped with the turn.
            guard state.value.running else { return globalConcurrentExecutor.enqueue(ExecutorJob(job)) }
            executeSoon { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
        } else if !execute({ job.runSynchronously(on: self.asUnownedTaskExecutor()) }) {
            globalConcurrentExecutor.enqueue(ExecutorJob(job))
        }
    }
}
