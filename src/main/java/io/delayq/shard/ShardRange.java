package io.delayq.shard;

import io.delayq.InvalidInputException;

import java.util.stream.IntStream;

/** A contiguous range of shards, {@code from} to {@code to} inclusive, owned by one worker. */
public record ShardRange(int from, int to) {

    public ShardRange {
        if (from < 0) {
            throw new InvalidInputException("shardFrom", "must be 0 or more, got " + from);
        }
        if (to < from) {
            throw new InvalidInputException("shardTo", "must be at least shardFrom (" + from + "), got " + to);
        }
    }

    public static ShardRange all(int shards) {
        return new ShardRange(0, shards - 1);
    }

    public int size() {
        return to - from + 1;
    }

    public IntStream shards() {
        return IntStream.rangeClosed(from, to);
    }

    public boolean fitsIn(int shards) {
        return to < shards;
    }

    @Override
    public String toString() {
        return from + "-" + to;
    }
}
