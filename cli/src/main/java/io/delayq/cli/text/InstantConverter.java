package io.delayq.cli.text;

import io.delayq.InvalidInputException;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

import java.time.Instant;

/** Picocli converter for instant options (ISO-8601 with a zone). */
public final class InstantConverter implements ITypeConverter<Instant> {
    @Override
    public Instant convert(String value) {
        try {
            return Instants.parse("instant", value);
        } catch (InvalidInputException e) {
            throw new TypeConversionException(e.getMessage().substring("instant: ".length()));
        }
    }
}
