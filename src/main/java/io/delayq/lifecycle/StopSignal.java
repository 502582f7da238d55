package io.delayq.lifecycle;

import sun.misc.Signal;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * SIGINT (Ctrl-C) or SIGTERM (Kubernetes stopping the pod) as a request to stop: what the worker, the
 * demo and the console wait on before they shut down in order.
 */
public final class StopSignal {
    private final CountDownLatch stop = new CountDownLatch(1);

    private StopSignal() {
    }

    /** Installs the handlers of both signals; from then on either one ends {@link #await}. */
    public static StopSignal install() {
        StopSignal signal = new StopSignal();
        Signal.handle(new Signal("INT"), s -> signal.stop.countDown());
        Signal.handle(new Signal("TERM"), s -> signal.stop.countDown());
        return signal;
    }

    /** Blocks until a stop signal came. */
    public void await() throws InterruptedException {
        stop.await();
    }

    /** @return whether a stop signal came within {@code timeout} */
    public boolean await(Duration timeout) throws InterruptedException {
        return stop.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }
}
