package io.delayq.worker.delivery;

import java.io.ByteArrayOutputStream;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;

/**
 * A webhook response's body, read as it arrives with no thread waiting for it: the first {@code limit} bytes are kept
 * (an error's excerpt, a result), the rest is not read (the connection is closed); with a limit of 0 the whole body is
 * read and dropped, so that the connection goes back to the client's pool. The response itself is complete at its
 * headers ({@link #getBody} answers at once): the status decides the outcome, and a receiver that stalls after its
 * headers holds nothing but this body, which its reader {@link #cancel}s at the time-out.
 */
final class BoundedBody implements HttpResponse.BodySubscriber<BoundedBody> {
    private final int limit;
    private final CompletableFuture<byte[]> content = new CompletableFuture<>();
    private final ByteArrayOutputStream kept = new ByteArrayOutputStream();
    private Flow.Subscription subscription;
    private boolean stopped;

    BoundedBody(int limit) {
        this.limit = limit;
    }

    /** Completes with the bytes kept once the body ended, the limit was reached or the connection failed. */
    CompletableFuture<byte[]> content() {
        return content;
    }

    /** Stops reading (closing the connection unless the body had ended) and completes with what was kept. */
    void cancel() {
        Flow.Subscription s;
        synchronized (this) {
            stopped = true;
            s = subscription;
        }
        if (s != null) {
            s.cancel();
        }
        finish();
    }

    @Override
    public CompletionStage<BoundedBody> getBody() {
        return CompletableFuture.completedFuture(this);
    }

    @Override
    public void onSubscribe(Flow.Subscription s) {
        boolean cancelled;
        synchronized (this) {
            subscription = s;
            cancelled = stopped;
        }
        if (cancelled) {
            s.cancel();
        } else {
            s.request(Long.MAX_VALUE);
        }
    }

    @Override
    public void onNext(List<ByteBuffer> items) {
        if (limit == 0) {
            return;
        }
        boolean full;
        synchronized (this) {
            if (stopped) {
                return;
            }
            for (ByteBuffer b : items) {
                int n = Math.min(b.remaining(), limit - kept.size());
                byte[] bytes = new byte[n];
                b.get(bytes);
                kept.write(bytes, 0, n);
            }
            full = kept.size() >= limit;
        }
        if (full) {
            cancel();
        }
    }

    @Override
    public void onError(Throwable throwable) {
        finish();
    }

    @Override
    public void onComplete() {
        finish();
    }

    private void finish() {
        byte[] bytes;
        synchronized (this) {
            stopped = true;
            bytes = kept.toByteArray();
        }
        content.complete(bytes);
    }
}
