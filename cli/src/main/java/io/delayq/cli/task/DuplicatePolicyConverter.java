package io.delayq.cli.task;

import io.delayq.task.DuplicatePolicy;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

import java.util.Arrays;
import java.util.Iterator;
import java.util.stream.Collectors;

/** {@code --on-duplicate reject|replace|keep-earlier}, the protocol's own spelling. */
public final class DuplicatePolicyConverter implements ITypeConverter<DuplicatePolicy> {
    @Override
    public DuplicatePolicy convert(String value) {
        for (DuplicatePolicy p : DuplicatePolicy.values()) {
            if (p.wire().equalsIgnoreCase(value.trim()) || p.name().equalsIgnoreCase(value.trim())) {
                return p;
            }
        }
        throw new TypeConversionException("'" + value + "' is not one of " + names());
    }

    static String names() {
        return Arrays.stream(DuplicatePolicy.values()).map(DuplicatePolicy::wire).collect(Collectors.joining(", "));
    }

    /** For picocli's help and completion. */
    public static final class Names implements Iterable<String> {
        @Override
        public Iterator<String> iterator() {
            return Arrays.stream(DuplicatePolicy.values()).map(DuplicatePolicy::wire).iterator();
        }
    }
}
