package io.delayq.bench;

/** Everything one subject produced in one run, with the machine load around it. */
record Row(int run, String name, String system, String settings, Results.W1 w1, Results.W2 w2, Results.Memory memory,
           String loadBefore, String loadAfter) {
}
