// A Go engine calling catalyzerd with the stock grpc-go stack: stubs come
// straight from proto/catalyzer.proto (protoc-gen-go + protoc-gen-go-grpc),
// nothing hand-written on the wire.
//
// Usage: czclient HOST:PORT
//
// It runs a session Execute (CREATE TEMPORARY VIEW), then a streamed Analyze
// with every rule traced that reads the view in the same session, then a
// stateless Analyze that must fail with a Spark error class. Each line it
// prints is checked by tests/polyglot; it exits non-zero on any mismatch.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"time"

	pb "catalyzer/v1"

	"google.golang.org/grpc"
)

func fail(format string, args ...interface{}) {
	fmt.Fprintf(os.Stderr, "czclient-go: "+format+"\n", args...)
	os.Exit(1)
}

// analyze runs one streamed Analyze and returns the events and the result,
// checking the stream's shape: events numbered 0, 1, 2, ... then exactly one
// result as the last message.
func analyze(ctx context.Context, c pb.AnalyzerClient, req *pb.AnalyzeRequest) ([]*pb.TraceEvent, *pb.AnalyzeResult) {
	stream, err := c.Analyze(ctx, req)
	if err != nil {
		fail("Analyze: %v", err)
	}
	var events []*pb.TraceEvent
	var result *pb.AnalyzeResult
	for {
		msg, err := stream.Recv()
		if err == io.EOF {
			break
		}
		if err != nil {
			fail("Analyze stream: %v", err)
		}
		if result != nil {
			fail("a message after the result")
		}
		switch k := msg.Kind.(type) {
		case *pb.AnalyzeResponse_TraceEvent:
			ev := k.TraceEvent
			if int(ev.Sequence) != len(events) {
				fail("event %d arrived with sequence %d", len(events), ev.Sequence)
			}
			events = append(events, ev)
		case *pb.AnalyzeResponse_Result:
			result = k.Result
			if msg.SessionId != req.SessionId {
				fail("session_id echoed as %q, sent %q", msg.SessionId, req.SessionId)
			}
		default:
			fail("a message with neither an event nor a result")
		}
	}
	if result == nil {
		fail("the stream ended without a result")
	}
	return events, result
}

func main() {
	if len(os.Args) != 2 {
		fail("usage: czclient HOST:PORT")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, err := grpc.DialContext(ctx, os.Args[1], grpc.WithInsecure(), grpc.WithBlock())
	if err != nil {
		fail("dial %s: %v", os.Args[1], err)
	}
	defer conn.Close()
	c := pb.NewAnalyzerClient(conn)
	session := fmt.Sprintf("go-%d", os.Getpid())

	// Session state: a view over inline rows, created by a statement.
	ex, err := c.Execute(ctx, &pb.ExecuteRequest{SessionId: session,
		Sql: "CREATE TEMPORARY VIEW orders AS SELECT * FROM VALUES (1, 2.50BD), (2, 7.25BD) AS t(id, amount)"})
	if err != nil {
		fail("Execute: %v", err)
	}
	if len(ex.Results) != 1 || !ex.Results[0].Ok {
		fail("Execute results: %v", ex.Results)
	}
	fmt.Printf("execute: ok session=%s\n", ex.SessionId)

	// A traced analysis in the same session that reads the view.
	events, res := analyze(ctx, c, &pb.AnalyzeRequest{SessionId: session,
		Input:      &pb.AnalyzeRequest_Sql{Sql: &pb.SqlQuery{Query: "SELECT id, amount * 2 AS doubled FROM orders WHERE id > 1"}},
		TraceLevel: pb.TraceLevel_TRACE_LEVEL_ALL})
	effective := 0
	for _, ev := range events {
		if ev.Effective {
			effective++
		}
	}
	fmt.Printf("events: %d in order, %d effective\n", len(events), effective)
	for _, ev := range events {
		if ev.Effective {
			fmt.Printf("event %d: %s / %s iteration %d changed %s\n", ev.Sequence, ev.Batch, ev.Rule, ev.Iteration, ev.ChangedKinds)
		}
	}
	if !res.Ok {
		fail("Analyze failed: %s %s", res.Error.GetErrorClass(), res.Error.GetMessage())
	}
	fmt.Printf("result: ok schema=%s\n", res.Schema)
	fmt.Printf("tree:\n%s\n", res.TreeString)

	// A stateless call that must fail with Spark's error class.
	_, bad := analyze(ctx, c, &pb.AnalyzeRequest{
		Input: &pb.AnalyzeRequest_Sql{Sql: &pb.SqlQuery{Query: "SELECT nope FROM orders"}}})
	if bad.Ok || bad.Error == nil {
		fail("a stateless call saw the session's view or did not fail")
	}
	fmt.Printf("error: %s\n", bad.Error.ErrorClass)

	drop, err := c.DropSession(ctx, &pb.DropSessionRequest{SessionId: session})
	if err != nil {
		fail("DropSession: %v", err)
	}
	fmt.Printf("drop: existed=%v\n", drop.Existed)
}
