package delayq_test

import (
	"context"
	"fmt"
	"time"

	delayq "delayq.io/go/delayq"
)

// The README's use, compiled with the tests so that it stays true (not run: it needs a Redis at localhost).
func Example() {
	ctx := context.Background()
	orders, err := delayq.Connect(ctx, "redis://localhost:6379", delayq.Options{Queue: "orders", Shards: 16})
	if err != nil {
		panic(err)
	}
	defer orders.Close()
	r, err := orders.Enqueue(ctx, delayq.Task{
		ID:      "order-8812",
		Delay:   30 * time.Minute, // the due time is computed on the Redis clock
		Payload: delayq.Ptr(`{"action":"cancel-if-unpaid"}`),
	}, delayq.Reject)
	if err == nil && r.Status == delayq.Duplicate {
		fmt.Println("order-8812 was already scheduled")
	}
	_, _ = orders.Enqueue(ctx, delayq.Task{ID: "payout-W-17", DueAt: time.Date(2026, 12, 3, 9, 0, 0, 0, time.UTC),
		Priority: delayq.High, ExpiresAt: time.Date(2026, 12, 3, 10, 0, 0, 0, time.UTC), MaxAttempts: delayq.Ptr(5)}, delayq.KeepEarlier)
	_, _ = orders.EnqueueMany(ctx, []delayq.Task{{ID: "coupon-C-9", Group: "tenant-42"}, {ID: "coupon-C-10"}}, "")
	_, _ = orders.Reschedule(ctx, "order-8812", delayq.In(45*time.Minute))
	c, _ := orders.Cancel(ctx, "order-8812")
	info, _ := orders.Inspect(ctx, "payout-W-17")
	stats, _ := orders.Stats(ctx)
	fmt.Println(c, info.State, stats.Scheduled)
}
