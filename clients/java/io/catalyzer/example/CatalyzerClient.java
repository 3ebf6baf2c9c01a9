// A Java engine calling catalyzerd with the stock grpc-java stack: stubs come
// straight from the .proto files (protoc --java_out + the grpc-java plugin),
// the channel is grpc-netty found through ManagedChannelBuilder. The Spark
// Connect messages are Spark's own (org.apache.spark.connect.proto, as an
// engine that already speaks Spark Connect has them); catalyzer.v1 uses them
// for its plans.
//
// Usage: java io.catalyzer.example.CatalyzerClient HOST:PORT
//
// It runs a session Execute (CREATE TEMPORARY VIEW), then a streamed Analyze
// with every rule traced that reads the view in the same session, then a
// stateless Analyze that must fail with a Spark error class; then, as a Spark
// Connect client, AnalyzePlan (schema, explain) of a Connect plan over the
// same session's view, and the same plan through catalyzer.v1 Analyze; then
// the Spark Connect tour (ConnectTour.java: every AnalyzePlan kind, every
// Config operation, ExecutePlan, errors, bad plans, ReleaseSession). Each
// line it prints is checked by tests/polyglot; it exits non-zero on any
// mismatch.
package io.catalyzer.example;

import io.catalyzer.v1.AnalyzeRequest;
import io.catalyzer.v1.AnalyzeResponse;
import io.catalyzer.v1.AnalyzeResult;
import io.catalyzer.v1.AnalyzerGrpc;
import io.catalyzer.v1.DropSessionRequest;
import io.catalyzer.v1.DropSessionResponse;
import io.catalyzer.v1.ExecuteRequest;
import io.catalyzer.v1.ExecuteResponse;
import io.catalyzer.v1.SqlQuery;
import io.catalyzer.v1.TraceEvent;
import io.catalyzer.v1.TraceLevel;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.spark.connect.proto.AnalyzePlanRequest;
import org.apache.spark.connect.proto.AnalyzePlanResponse;
import org.apache.spark.connect.proto.Expression;
import org.apache.spark.connect.proto.Plan;
import org.apache.spark.connect.proto.Project;
import org.apache.spark.connect.proto.Read;
import org.apache.spark.connect.proto.Relation;
import org.apache.spark.connect.proto.RelationCommon;
import org.apache.spark.connect.proto.SparkConnectServiceGrpc;
import org.apache.spark.connect.proto.UserContext;

public final class CatalyzerClient {
    private static void fail(String why) {
        System.err.println("czclient-java: " + why);
        System.exit(1);
    }

    /** One streamed Analyze: events numbered 0, 1, 2, ... then exactly one result, last. */
    private static AnalyzeResult analyze(AnalyzerGrpc.AnalyzerBlockingStub stub, AnalyzeRequest req,
                                         List<TraceEvent> events) {
        AnalyzeResult result = null;
        Iterator<AnalyzeResponse> it = stub.withDeadlineAfter(30, TimeUnit.SECONDS).analyze(req);
        while (it.hasNext()) {
            AnalyzeResponse msg = it.next();
            if (result != null) fail("a message after the result");
            switch (msg.getKindCase()) {
                case TRACE_EVENT:
                    TraceEvent ev = msg.getTraceEvent();
                    if (ev.getSequence() != events.size())
                        fail("event " + events.size() + " arrived with sequence " + ev.getSequence());
                    events.add(ev);
                    break;
                case RESULT:
                    result = msg.getResult();
                    if (!msg.getSessionId().equals(req.getSessionId()))
                        fail("session_id echoed as '" + msg.getSessionId() + "', sent '" + req.getSessionId() + "'");
                    break;
                default:
                    fail("a message with neither an event nor a result");
            }
        }
        if (result == null) fail("the stream ended without a result");
        return result;
    }

    private static Expression attr(String name, long planId) {
        return Expression.newBuilder().setUnresolvedAttribute(
            Expression.UnresolvedAttribute.newBuilder().setUnparsedIdentifier(name).setPlanId(planId)).build();
    }

    /** df.select(col("id"), (col("amount") * 2).as("doubled")) over table "orders", as a Connect client builds it. */
    private static Relation connectPlan() {
        Expression times = Expression.newBuilder().setUnresolvedFunction(Expression.UnresolvedFunction.newBuilder()
            .setFunctionName("*").addArguments(attr("amount", 0))
            .addArguments(Expression.newBuilder().setLiteral(Expression.Literal.newBuilder().setInteger(2)))).build();
        Expression doubled = Expression.newBuilder().setAlias(Expression.Alias.newBuilder().setExpr(times).addName("doubled"))
            .build();
        Relation read = Relation.newBuilder().setCommon(RelationCommon.newBuilder().setPlanId(0))
            .setRead(Read.newBuilder().setNamedTable(Read.NamedTable.newBuilder().setUnparsedIdentifier("orders"))).build();
        return Relation.newBuilder().setCommon(RelationCommon.newBuilder().setPlanId(1))
            .setProject(Project.newBuilder().setInput(read).addExpressions(attr("id", 0)).addExpressions(doubled)).build();
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 1) fail("usage: CatalyzerClient HOST:PORT");
        ManagedChannel channel = ManagedChannelBuilder.forTarget(args[0]).usePlaintext().build();
        try {
            AnalyzerGrpc.AnalyzerBlockingStub stub = AnalyzerGrpc.newBlockingStub(channel);
            String session = UUID.randomUUID().toString(); // one session for both services

            // Session state: a view over inline rows, created by a statement.
            ExecuteResponse ex = stub.withDeadlineAfter(30, TimeUnit.SECONDS).execute(ExecuteRequest.newBuilder()
                .setSessionId(session)
                .setSql("CREATE TEMPORARY VIEW orders AS SELECT * FROM VALUES (1, 2.50BD), (2, 7.25BD) AS t(id, amount)")
                .build());
            if (ex.getResultsCount() != 1 || !ex.getResults(0).getOk()) fail("Execute results: " + ex.getResultsList());
            System.out.println("execute: ok session=" + ex.getSessionId());

            // A traced analysis in the same session that reads the view.
            List<TraceEvent> events = new ArrayList<>();
            AnalyzeResult res = analyze(stub, AnalyzeRequest.newBuilder()
                .setSessionId(session)
                .setSql(SqlQuery.newBuilder().setQuery("SELECT id, amount * 2 AS doubled FROM orders WHERE id > 1"))
                .setTraceLevel(TraceLevel.TRACE_LEVEL_ALL)
                .build(), events);
            long effective = events.stream().filter(TraceEvent::getEffective).count();
            System.out.println("events: " + events.size() + " in order, " + effective + " effective");
            for (TraceEvent ev : events)
                if (ev.getEffective())
                    System.out.println("event " + ev.getSequence() + ": " + ev.getBatch() + " / " + ev.getRule()
                        + " iteration " + ev.getIteration() + " changed " + ev.getChangedKinds());
            if (!res.getOk()) fail("Analyze failed: " + res.getError().getErrorClass() + " " + res.getError().getMessage());
            System.out.println("result: ok schema=" + res.getSchema());
            System.out.println("tree:\n" + res.getTreeString());

            // A stateless call that must fail with Spark's error class.
            AnalyzeResult bad = analyze(stub, AnalyzeRequest.newBuilder()
                .setSql(SqlQuery.newBuilder().setQuery("SELECT nope FROM orders"))
                .build(), new ArrayList<>());
            if (bad.getOk() || !bad.hasError()) fail("a stateless call saw the session's view or did not fail");
            System.out.println("error: " + bad.getError().getErrorClass());

            // Spark Connect: AnalyzePlan of a DataFrame plan over the session's view.
            SparkConnectServiceGrpc.SparkConnectServiceBlockingStub spark = SparkConnectServiceGrpc.newBlockingStub(channel);
            UserContext user = UserContext.newBuilder().setUserId("java-engine").build();
            AnalyzePlanResponse sr = spark.withDeadlineAfter(30, TimeUnit.SECONDS).analyzePlan(AnalyzePlanRequest.newBuilder()
                .setSessionId(session).setUserContext(user)
                .setSchema(AnalyzePlanRequest.Schema.newBuilder().setPlan(Plan.newBuilder().setRoot(connectPlan())))
                .build());
            String cols = sr.getSchema().getSchema().getStruct().getFieldsList().stream()
                .map(f -> f.getName()).collect(Collectors.joining(","));
            System.out.println("connect schema: " + cols + " server_side_session_id=" + !sr.getServerSideSessionId().isEmpty());
            AnalyzePlanResponse er = spark.withDeadlineAfter(30, TimeUnit.SECONDS).analyzePlan(AnalyzePlanRequest.newBuilder()
                .setSessionId(session).setUserContext(user)
                .setExplain(AnalyzePlanRequest.Explain.newBuilder().setPlan(Plan.newBuilder().setRoot(connectPlan()))
                    .setExplainMode(AnalyzePlanRequest.Explain.ExplainMode.EXPLAIN_MODE_EXTENDED))
                .build());
            String explain = er.getExplain().getExplainString();
            int at = explain.indexOf("== Analyzed Logical Plan ==");
            if (at < 0) fail("explain without an analysed section: " + explain);
            System.out.println("connect explain: " + explain.substring(at).split("\n")[2]);

            // The same Connect plan through catalyzer.v1, with the per-rule trace.
            List<TraceEvent> pevents = new ArrayList<>();
            AnalyzeResult pres = analyze(stub, AnalyzeRequest.newBuilder().setSessionId(session).setPlan(connectPlan())
                .setTraceLevel(TraceLevel.TRACE_LEVEL_EFFECTIVE).build(), pevents);
            if (!pres.getOk()) fail("Analyze of a Connect plan failed: " + pres.getError().getMessage());
            System.out.println("plan: ok schema=" + pres.getSchema() + " events=" + pevents.size());

            DropSessionResponse drop = stub.withDeadlineAfter(30, TimeUnit.SECONDS)
                .dropSession(DropSessionRequest.newBuilder().setSessionId(session).build());
            System.out.println("drop: existed=" + drop.getExisted());

            ConnectTour.run(channel);
        } finally {
            channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
        }
    }
}
