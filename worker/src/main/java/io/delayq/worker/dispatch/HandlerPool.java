package io.delayq.worker.dispatch;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Runs handlers on at most {@code maxThreads} threads, waking only as many as the work needs.
 *
 * <p>A fixed pool with one thread per concurrency slot wakes a parked thread for every task: with
 * fast handlers that context switch costs more than the handler, and it dominated the worker's CPU
 * when draining a backlog. Here a thread that finishes a task takes the next one without parking,
 * and a sleeping thread is woken only when work is waiting and no awake thread is between tasks
 * to take it. As a safety net, when work waits and no thread has taken a task for {@code rampAfter}
 * (all awake threads stuck in slow handlers) the number of awake threads doubles, up to
 * {@code maxThreads}; a queue that keeps moving (fast handlers working off a claim) gets no more.
 */
public final class HandlerPool extends AbstractExecutorService {
    private record Job(Runnable task, long queuedAt) {
    }

    private final int maxThreads;
    private final long rampAfterNanos;
    private final ThreadFactory threads;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition work = lock.newCondition();
    private final Condition backlog = lock.newCondition();
    private final Condition terminated = lock.newCondition();
    private final ArrayDeque<Job> queue = new ArrayDeque<>();
    private final List<Thread> started = new ArrayList<>();
    /** Threads parked waiting for work, and wake-ups sent to them that they have not consumed yet. */
    private int parked;
    private int wakeups;
    /** Awake threads between tasks, looking for one (a thread just woken counts as free). */
    private int free;
    private int alive;
    /** When a thread last took a task from the queue (System.nanoTime): the ramp's measure of a queue that stopped moving. */
    private long lastTakeNanos;
    private boolean shutdown;
    private final Thread ramp;

    public HandlerPool(int maxThreads, long rampAfterNanos, ThreadFactory threads) {
        if (maxThreads < 1) {
            throw new IllegalArgumentException("maxThreads must be at least 1, got " + maxThreads);
        }
        this.maxThreads = maxThreads;
        this.rampAfterNanos = rampAfterNanos;
        this.threads = threads;
        this.ramp = threads.newThread(this::rampLoop);
        this.ramp.setDaemon(true);
        this.ramp.start();
    }

    @Override
    public void execute(Runnable task) {
        lock.lock();
        try {
            if (shutdown) {
                throw new RejectedExecutionException("handler pool is shut down");
            }
            queue.add(new Job(task, System.nanoTime()));
            // at most one thread is woken per hand-over: a batch of fast tasks is drained by the
            // threads already awake; the ramp adds threads when tasks are slow to start
            if (free == 0) {
                wake(1);
            }
            if (queue.size() == 1) {
                backlog.signal();
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * Hands over the tasks of one claim under one lock (one hand-over per task cost a lock, and often a wake-up, per
     * task); all or none: a pool shut down rejects them all.
     */
    public void executeAll(List<? extends Runnable> tasks) {
        if (tasks.isEmpty()) {
            return;
        }
        lock.lock();
        try {
            if (shutdown) {
                throw new RejectedExecutionException("handler pool is shut down");
            }
            long now = System.nanoTime();
            boolean wasEmpty = queue.isEmpty();
            for (Runnable task : tasks) {
                queue.add(new Job(task, now));
            }
            // as execute(): one thread is woken when none is free; the threads already awake drain the rest and pass
            // the baton while work is left, and the ramp adds threads when tasks wait too long
            if (free == 0) {
                wake(1);
            }
            if (wasEmpty) {
                backlog.signal();
            }
        } finally {
            lock.unlock();
        }
    }

    /** Wakes (or starts) up to {@code n} threads; the caller holds the lock. */
    private void wake(int n) {
        for (int i = 0; i < n; i++) {
            if (parked > wakeups) {
                wakeups++;
                free++;
                work.signal();
            } else if (started.size() < maxThreads) {
                Thread t = threads.newThread(this::runLoop);
                started.add(t);
                alive++;
                free++;
                t.start();
            } else {
                return;
            }
        }
    }

    private void runLoop() {
        try {
            boolean fromTask = false;
            while (true) {
                Runnable task = next(fromTask);
                fromTask = true;
                if (task == null) {
                    return;
                }
                try {
                    task.run();
                } catch (RuntimeException | Error e) {
                    Thread t = Thread.currentThread();
                    t.getUncaughtExceptionHandler().uncaughtException(t, e);
                }
            }
        } finally {
            lock.lock();
            try {
                alive--;
                if (alive == 0 && shutdown) {
                    terminated.signalAll();
                }
            } finally {
                lock.unlock();
            }
        }
    }

    /** The next task (this thread stops being free), or null when the pool is shut down and empty. */
    private Runnable next(boolean fromTask) {
        lock.lock();
        try {
            if (fromTask) {
                free++;
            }
            while (true) {
                Job job = queue.poll();
                if (job != null) {
                    free--;
                    lastTakeNanos = System.nanoTime();
                    // pass the baton: work is left and nobody else is looking for it (if this task
                    // is quick, this thread is back before the woken one and the chain stops)
                    if (free == 0 && !queue.isEmpty()) {
                        wake(1);
                    }
                    return job.task();
                }
                if (shutdown) {
                    free--;
                    return null;
                }
                free--;
                parked++;
                try {
                    while (wakeups == 0 && !shutdown) {
                        work.awaitUninterruptibly();
                    }
                } finally {
                    parked--;
                }
                if (wakeups > 0) {
                    wakeups--;   // the waker already counted this thread as free
                } else {
                    free++;
                }
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * While tasks wait: sleeps until the oldest has waited {@code rampAfter}, then doubles the awake
     * threads if it is still waiting (a queue that drains in time costs this thread no wake-up per task).
     */
    private void rampLoop() {
        while (true) {
            long sleep;
            lock.lock();
            try {
                while (queue.isEmpty() && !shutdown) {
                    backlog.awaitUninterruptibly();
                }
                if (shutdown && queue.isEmpty()) {
                    return;
                }
                // waiting counts from the later of the oldest task's hand-over and the last take: a deep queue
                // (a claim's tasks, the prefetch buffer) that the awake threads keep draining needs no more threads
                // (16 threads on 2 cores contended for the lock for no-op handlers), one that stopped moving does
                Job oldest = queue.peek();
                long waited = System.nanoTime() - Math.max(oldest.queuedAt(), lastTakeNanos);
                if (waited >= rampAfterNanos) {
                    int awake = started.size() - parked + wakeups;
                    wake(Math.min(queue.size() - free, Math.max(1, awake)));
                    sleep = rampAfterNanos / 2;
                } else {
                    sleep = rampAfterNanos - waited;
                }
            } finally {
                lock.unlock();
            }
            LockSupport.parkNanos(Math.max(50_000L, sleep));
        }
    }

    /** Threads started so far (they stay, parked, once started). */
    public int threadCount() {
        lock.lock();
        try {
            return started.size();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void shutdown() {
        lock.lock();
        try {
            shutdown = true;
            work.signalAll();
            backlog.signalAll();
            LockSupport.unpark(ramp);
            if (alive == 0) {
                terminated.signalAll();
            }
        } finally {
            lock.unlock();
        }
    }

    @Override
    public List<Runnable> shutdownNow() {
        List<Runnable> never = new ArrayList<>();
        lock.lock();
        try {
            queue.forEach(j -> never.add(j.task()));
            queue.clear();
            started.forEach(Thread::interrupt);
        } finally {
            lock.unlock();
        }
        shutdown();
        return never;
    }

    @Override
    public boolean isShutdown() {
        lock.lock();
        try {
            return shutdown;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public boolean isTerminated() {
        lock.lock();
        try {
            return shutdown && alive == 0 && queue.isEmpty();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
        long left = unit.toNanos(timeout);
        lock.lock();
        try {
            while (!(shutdown && alive == 0 && queue.isEmpty())) {
                if (left <= 0) {
                    return false;
                }
                left = terminated.awaitNanos(left);
            }
            return true;
        } finally {
            lock.unlock();
        }
    }
}
