-- The delayq outbox: one row per task operation, written in the application's own transaction and
-- copied into Redis by a relay after it committed (docs/outbox.md describes every column as a protocol).

CREATE TABLE delayq_outbox (
    seq        bigserial   PRIMARY KEY,
    op         text        NOT NULL CHECK (op IN ('enqueue', 'cancel', 'reschedule')),
    queue      text        NOT NULL,
    task_id    text        NOT NULL,
    due_at     timestamptz,
    payload    text,
    priority   smallint    NOT NULL DEFAULT 0,
    dedup      text        NOT NULL DEFAULT 'reject',
    options    text,
    created_at timestamptz NOT NULL DEFAULT now()
);

-- the relay takes only the oldest row of each task (so a cancel never overtakes its enqueue, even across relays)
CREATE INDEX delayq_outbox_task ON delayq_outbox (queue, task_id, seq);

-- rows the relay cannot turn into a task (bad id, due time, payload, options): kept with the reason,
-- never in the way of the rows behind them
CREATE TABLE delayq_outbox_quarantine (
    seq            bigint      PRIMARY KEY,
    op             text        NOT NULL,
    queue          text        NOT NULL,
    task_id        text        NOT NULL,
    due_at         timestamptz,
    payload        text,
    priority       smallint    NOT NULL,
    dedup          text        NOT NULL,
    options        text,
    created_at     timestamptz NOT NULL,
    reason         text        NOT NULL,
    quarantined_at timestamptz NOT NULL DEFAULT now()
);

-- wakes the relays (LISTEN delayq_outbox) when a transaction that wrote rows commits; a NOTIFY is
-- delivered at commit only, and several in one transaction are folded into one
CREATE FUNCTION delayq_outbox_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('delayq_outbox', '');
    RETURN NULL;
END;
$$;

CREATE TRIGGER delayq_outbox_notify
    AFTER INSERT ON delayq_outbox
    FOR EACH STATEMENT EXECUTE FUNCTION delayq_outbox_notify();
