package io.delayq.bench;

import java.time.Instant;

/** Wall-clock time in microseconds: lag is measured against epoch-millisecond due times, below 1 ms. */
final class Clock {
    private Clock() {
    }

    static long nowMicros() {
        Instant now = Instant.now();
        return now.getEpochSecond() * 1_000_000L + now.getNano() / 1_000;
    }
}
