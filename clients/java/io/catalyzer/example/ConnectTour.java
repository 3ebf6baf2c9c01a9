// The Spark Connect calls an engine that already speaks Spark Connect makes,
// each checked against what Spark answers: every AnalyzePlan kind, every
// Config operation, ExecutePlan of a command (and the refusal of a query),
// errors as ErrorUtils sends them (google.rpc.Status with ErrorInfo in
// grpc-status-details-bin), bad plans refused with INVALID_ARGUMENT, and
// ReleaseSession. One line per check, "connect-tour ok: NAME"; the first
// mismatch ends the program with a non-zero exit.
package io.catalyzer.example;

import io.catalyzer.rpc.ErrorInfo;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.spark.connect.proto.AnalyzePlanRequest;
import org.apache.spark.connect.proto.AnalyzePlanResponse;
import org.apache.spark.connect.proto.Command;
import org.apache.spark.connect.proto.ConfigRequest;
import org.apache.spark.connect.proto.ConfigResponse;
import org.apache.spark.connect.proto.DataType;
import org.apache.spark.connect.proto.ExecutePlanRequest;
import org.apache.spark.connect.proto.ExecutePlanResponse;
import org.apache.spark.connect.proto.KeyValue;
import org.apache.spark.connect.proto.LocalRelation;
import org.apache.spark.connect.proto.Plan;
import org.apache.spark.connect.proto.ReattachOptions;
import org.apache.spark.connect.proto.Relation;
import org.apache.spark.connect.proto.ReleaseSessionRequest;
import org.apache.spark.connect.proto.ReleaseSessionResponse;
import org.apache.spark.connect.proto.SQL;
import org.apache.spark.connect.proto.SparkConnectServiceGrpc;
import org.apache.spark.connect.proto.SqlCommand;
import org.apache.spark.connect.proto.UserContext;

final class ConnectTour {
    private static final Metadata.Key<byte[]> STATUS_DETAILS =
        Metadata.Key.of("grpc-status-details-bin", Metadata.BINARY_BYTE_MARSHALLER);

    private final SparkConnectServiceGrpc.SparkConnectServiceBlockingStub spark;
    private final String sid = UUID.randomUUID().toString();
    private final UserContext user = UserContext.newBuilder().setUserId("java-engine").build();

    private ConnectTour(ManagedChannel channel) {
        spark = SparkConnectServiceGrpc.newBlockingStub(channel);
    }

    private interface Call { void run(); }

    private static void fail(String why) {
        System.err.println("czclient-java: " + why);
        System.exit(1);
    }

    private static void passed(String name) { System.out.println("connect-tour ok: " + name); }

    private static void expectEqual(String name, String got, String want) {
        if (!got.equals(want)) fail(name + ":\n got  '" + got + "'\n want '" + want + "'");
        passed(name);
    }

    private static Relation sql(String query) {
        return Relation.newBuilder().setSql(SQL.newBuilder().setQuery(query)).build();
    }

    private static Plan root(Relation r) { return Plan.newBuilder().setRoot(r).build(); }

    /** The ErrorInfo of a failed call, decoded from its google.rpc.Status trailer (null when absent). */
    private static ErrorInfo errorInfo(StatusRuntimeException e) {
        Metadata trailers = e.getTrailers();
        byte[] raw = trailers == null ? null : trailers.get(STATUS_DETAILS);
        if (raw == null) return null;
        try {
            io.catalyzer.rpc.Status st = io.catalyzer.rpc.Status.parseFrom(raw);
            for (com.google.protobuf.Any any : st.getDetailsList())
                if (any.getTypeUrl().endsWith("/google.rpc.ErrorInfo")) return ErrorInfo.parseFrom(any.getValue());
        } catch (com.google.protobuf.InvalidProtocolBufferException bad) {
            fail("grpc-status-details-bin does not decode: " + bad);
        }
        return null;
    }

    /** The call must fail with code and, when errorClass is not empty, Spark's ErrorInfo naming that class. */
    private static void expectSparkError(String name, Call call, Status.Code code, String errorClass) {
        try {
            call.run();
        } catch (StatusRuntimeException e) {
            if (e.getStatus().getCode() != code) fail(name + ": code " + e.getStatus() + ", expected " + code);
            if (!errorClass.isEmpty()) {
                ErrorInfo info = errorInfo(e);
                if (info == null) fail(name + ": no ErrorInfo in the status details (" + e + ")");
                if (!info.getDomain().equals("org.apache.spark")
                    || !errorClass.equals(info.getMetadataMap().get("errorClass"))
                    || info.getMetadataMap().getOrDefault("sqlState", "").isEmpty() || info.getReason().isEmpty())
                    fail(name + ": ErrorInfo " + info + ", expected org.apache.spark " + errorClass);
            }
            passed(name);
            return;
        }
        fail(name + ": the call succeeded, expected " + code + " " + errorClass);
    }

    private AnalyzePlanResponse analyze(AnalyzePlanRequest.Builder req) {
        AnalyzePlanResponse r = spark.withDeadlineAfter(30, TimeUnit.SECONDS)
            .analyzePlan(req.setSessionId(sid).setUserContext(user).build());
        if (r.getServerSideSessionId().isEmpty()) fail("AnalyzePlan: no server_side_session_id");
        return r;
    }

    private ConfigResponse config(ConfigRequest.Operation.Builder op) {
        return spark.withDeadlineAfter(30, TimeUnit.SECONDS)
            .config(ConfigRequest.newBuilder().setSessionId(sid).setUserContext(user).setOperation(op).build());
    }

    private static KeyValue kv(String key, String value) {
        return KeyValue.newBuilder().setKey(key).setValue(value).build();
    }

    /** The response's pairs as "key=value" ("key=<unset>" for an absent value). */
    private String pairs(ConfigRequest.Operation.Builder op) {
        return config(op).getPairsList().stream()
            .map(p -> p.getKey() + "=" + (p.hasValue() ? p.getValue() : "<unset>")).collect(Collectors.joining(" "));
    }

    private void configChecks() {
        config(ConfigRequest.Operation.newBuilder().setSet(ConfigRequest.Set.newBuilder()
            .addPairs(kv("spark.sql.ansi.enabled", "false")).addPairs(kv("my.own.key", "x"))));
        expectEqual("Config set then get (set values, Spark's typed defaults)",
            pairs(ConfigRequest.Operation.newBuilder().setGet(ConfigRequest.Get.newBuilder()
                .addKeys("spark.sql.ansi.enabled").addKeys("my.own.key").addKeys("spark.sql.shuffle.partitions"))),
            "spark.sql.ansi.enabled=false my.own.key=x spark.sql.shuffle.partitions=200");
        expectEqual("Config get_with_default",
            pairs(ConfigRequest.Operation.newBuilder().setGetWithDefault(ConfigRequest.GetWithDefault.newBuilder()
                .addPairs(kv("spark.sql.ansi.enabled", "true")).addPairs(kv("nope.x", "d")))),
            "spark.sql.ansi.enabled=false nope.x=d");
        expectEqual("Config get_option",
            pairs(ConfigRequest.Operation.newBuilder().setGetOption(ConfigRequest.GetOption.newBuilder()
                .addKeys("nope.y").addKeys("spark.sql.groupByOrdinal"))),
            "nope.y=<unset> spark.sql.groupByOrdinal=true");
        String all = pairs(ConfigRequest.Operation.newBuilder().setGetAll(
            ConfigRequest.GetAll.newBuilder().setPrefix("spark.sql.ansi.")));
        if (!all.contains("spark.sql.ansi.enabled=false") || all.contains("my.own.key"))
            fail("Config get_all with a prefix: " + all);
        passed("Config get_all with a prefix");
        config(ConfigRequest.Operation.newBuilder().setUnset(ConfigRequest.Unset.newBuilder().addKeys("spark.sql.ansi.enabled")));
        expectEqual("Config unset returns the default",
            pairs(ConfigRequest.Operation.newBuilder().setGet(ConfigRequest.Get.newBuilder().addKeys("spark.sql.ansi.enabled"))),
            "spark.sql.ansi.enabled=true");
        expectEqual("Config is_modifiable",
            pairs(ConfigRequest.Operation.newBuilder().setIsModifiable(ConfigRequest.IsModifiable.newBuilder()
                .addKeys("spark.sql.ansi.enabled").addKeys("spark.sql.warehouse.dir"))),
            "spark.sql.ansi.enabled=true spark.sql.warehouse.dir=false");
        expectSparkError("Config get of an unknown key: SQL_CONF_NOT_FOUND", () -> config(ConfigRequest.Operation.newBuilder()
            .setGet(ConfigRequest.Get.newBuilder().addKeys("no.such.key"))), Status.Code.INTERNAL, "SQL_CONF_NOT_FOUND");
        expectSparkError("Config set of a static key: CANNOT_MODIFY_CONFIG", () -> config(ConfigRequest.Operation.newBuilder()
            .setSet(ConfigRequest.Set.newBuilder().addPairs(kv("spark.sql.warehouse.dir", "/tmp/x")))),
            Status.Code.INTERNAL, "CANNOT_MODIFY_CONFIG");
    }

    /** One ExecutePlan, reattachable as Spark's clients ask by default (only then does it end with ResultComplete). */
    private List<ExecutePlanResponse> execute(Plan plan) {
        ExecutePlanRequest req = ExecutePlanRequest.newBuilder().setSessionId(sid).setUserContext(user).setPlan(plan)
            .addRequestOptions(ExecutePlanRequest.RequestOption.newBuilder()
                .setReattachOptions(ReattachOptions.newBuilder().setReattachable(true)))
            .build();
        List<ExecutePlanResponse> out = new ArrayList<>();
        Iterator<ExecutePlanResponse> it = spark.withDeadlineAfter(30, TimeUnit.SECONDS).executePlan(req);
        while (it.hasNext()) out.add(it.next());
        return out;
    }

    private void executeChecks() {
        List<ExecutePlanResponse> out = execute(Plan.newBuilder().setCommand(Command.newBuilder().setSqlCommand(
            SqlCommand.newBuilder().setInput(sql(
                "CREATE TEMPORARY VIEW tour_orders AS SELECT * FROM VALUES (1, 2.50BD), (2, 7.25BD) AS t(id, amount)"))))
            .build());
        if (out.size() < 2 || !out.get(0).hasSqlCommandResult() || !out.get(out.size() - 1).hasResultComplete())
            fail("ExecutePlan of a command: " + out.size() + " responses, want a SqlCommandResult first and ResultComplete last");
        for (ExecutePlanResponse m : out)
            if (!m.getSessionId().equals(sid) || m.getServerSideSessionId().isEmpty() || m.getOperationId().isEmpty())
                fail("ExecutePlan response without session/operation ids: " + m);
        passed("ExecutePlan SqlCommand: SqlCommandResult ... ResultComplete");
        expectSparkError("ExecutePlan of a query: UNIMPLEMENTED (analysis only)", () -> execute(root(sql("SELECT 1"))),
            Status.Code.UNIMPLEMENTED, "");
    }

    private AnalyzePlanRequest.Builder req() { return AnalyzePlanRequest.newBuilder(); }

    private void analyzeChecks() {
        Plan query = root(sql("SELECT id, amount FROM tour_orders WHERE id > 1"));
        AnalyzePlanResponse r = analyze(req().setSchema(AnalyzePlanRequest.Schema.newBuilder().setPlan(query)));
        expectEqual("AnalyzePlan schema", r.getSchema().getSchema().getStruct().getFieldsList().stream()
            .map(f -> f.getName()).collect(Collectors.joining(",")), "id,amount");

        for (AnalyzePlanRequest.Explain.ExplainMode mode : AnalyzePlanRequest.Explain.ExplainMode.values()) {
            if (mode == AnalyzePlanRequest.Explain.ExplainMode.UNRECOGNIZED) continue;
            String e = analyze(req().setExplain(AnalyzePlanRequest.Explain.newBuilder().setPlan(query).setExplainMode(mode)))
                .getExplain().getExplainString();
            // every mode shows the analysed plan and says the later plans are not produced
            if (!e.contains("Project [id#") || !e.contains("not produced")) fail("explain " + mode + ": " + e);
            if (mode == AnalyzePlanRequest.Explain.ExplainMode.EXPLAIN_MODE_EXTENDED
                && (!e.startsWith("== Parsed Logical Plan ==\n")
                    || !e.contains("== Analyzed Logical Plan ==\nid: int, amount: decimal(3,2)\n")))
                fail("explain EXTENDED: Spark's parsed and analysed sections expected: " + e);
        }
        passed("AnalyzePlan explain, every mode");

        expectEqual("AnalyzePlan tree_string (level 1)",
            analyze(req().setTreeString(AnalyzePlanRequest.TreeString.newBuilder().setPlan(query).setLevel(1)))
                .getTreeString().getTreeString(),
            "root\n |-- id: integer (nullable = false)\n |-- amount: decimal(3,2) (nullable = false)\n");

        Plan local = root(Relation.newBuilder().setLocalRelation(LocalRelation.newBuilder().setSchema("a INT")).build());
        boolean localIsLocal = analyze(req().setIsLocal(AnalyzePlanRequest.IsLocal.newBuilder().setPlan(local)))
            .getIsLocal().getIsLocal();
        boolean rangeIsLocal = analyze(req().setIsLocal(AnalyzePlanRequest.IsLocal.newBuilder()
            .setPlan(root(sql("SELECT * FROM range(3)"))))).getIsLocal().getIsLocal();
        if (!localIsLocal || rangeIsLocal) fail("is_local: a local relation must be local, a range not");
        passed("AnalyzePlan is_local");
        if (analyze(req().setIsStreaming(AnalyzePlanRequest.IsStreaming.newBuilder().setPlan(query)))
            .getIsStreaming().getIsStreaming())
            fail("is_streaming of a batch query");
        passed("AnalyzePlan is_streaming");
        expectEqual("AnalyzePlan input_files (a view over inline rows reads no file)",
            String.join(",", analyze(req().setInputFiles(AnalyzePlanRequest.InputFiles.newBuilder().setPlan(query)))
                .getInputFiles().getFilesList()), "");
        String v = analyze(req().setSparkVersion(AnalyzePlanRequest.SparkVersion.newBuilder()))
            .getSparkVersion().getVersion();
        if (!v.startsWith("4.")) fail("spark_version " + v);
        passed("AnalyzePlan spark_version " + v);

        DataType parsed = analyze(req().setDdlParse(AnalyzePlanRequest.DDLParse.newBuilder()
            .setDdlString("a INT NOT NULL, b ARRAY<STRING>"))).getDdlParse().getParsed();
        List<DataType.StructField> fs = parsed.getStruct().getFieldsList();
        if (fs.size() != 2 || !fs.get(0).getName().equals("a") || fs.get(0).getNullable()
            || !fs.get(0).getDataType().hasInteger() || !fs.get(1).getDataType().hasArray())
            fail("ddl_parse: " + parsed);
        passed("AnalyzePlan ddl_parse");
        expectSparkError("AnalyzePlan ddl_parse of bad DDL: PARSE_SYNTAX_ERROR", () -> analyze(req().setDdlParse(
            AnalyzePlanRequest.DDLParse.newBuilder().setDdlString("a INT,,"))), Status.Code.INTERNAL, "PARSE_SYNTAX_ERROR");
        String js = "{\"type\":\"struct\",\"fields\":[{\"name\":\"id\",\"type\":\"long\",\"nullable\":false,\"metadata\":{}}]}";
        expectEqual("AnalyzePlan json_to_ddl", analyze(req().setJsonToDdl(AnalyzePlanRequest.JsonToDDL.newBuilder()
            .setJsonString(js))).getJsonToDdl().getDdlString(), "id BIGINT NOT NULL");

        Plan a = root(sql("SELECT id + 1 AS x FROM tour_orders"));
        Plan b = root(sql("SELECT id + 1 AS y FROM tour_orders"));
        Plan c = root(sql("SELECT id + 2 AS x FROM tour_orders"));
        java.util.function.BiPredicate<Plan, Plan> same = (p, q) -> analyze(req().setSameSemantics(
            AnalyzePlanRequest.SameSemantics.newBuilder().setTargetPlan(p).setOtherPlan(q))).getSameSemantics().getResult();
        if (!same.test(a, b) || same.test(a, c)) fail("same_semantics: aliases must not matter, a different constant must");
        passed("AnalyzePlan same_semantics");
        java.util.function.ToIntFunction<Plan> hash = p -> analyze(req().setSemanticHash(
            AnalyzePlanRequest.SemanticHash.newBuilder().setPlan(p))).getSemanticHash().getResult();
        if (hash.applyAsInt(a) != hash.applyAsInt(b) || hash.applyAsInt(a) == hash.applyAsInt(c))
            fail("semantic_hash: equal plans must hash equal, others differ");
        passed("AnalyzePlan semantic_hash");
        expectSparkError("AnalyzePlan persist: UNIMPLEMENTED (no data is held)", () -> analyze(req().setPersist(
            AnalyzePlanRequest.Persist.newBuilder().setRelation(sql("SELECT 1")))), Status.Code.UNIMPLEMENTED, "");

        expectSparkError("AnalyzePlan of a bad column: UNRESOLVED_COLUMN in ErrorInfo", () -> analyze(req().setSchema(
            AnalyzePlanRequest.Schema.newBuilder().setPlan(root(sql("SELECT nope FROM tour_orders"))))),
            Status.Code.INTERNAL, "UNRESOLVED_COLUMN.WITH_SUGGESTION");
        try {
            analyze(req().setSchema(AnalyzePlanRequest.Schema.newBuilder().setPlan(root(Relation.newBuilder().build()))));
            fail("a relation without a type was accepted");
        } catch (StatusRuntimeException e) {
            if (e.getStatus().getCode() != Status.Code.INVALID_ARGUMENT
                || e.getStatus().getDescription() == null || !e.getStatus().getDescription().contains("rel_type is not set"))
                fail("a relation without a type: " + e);
        }
        passed("a relation without a type: INVALID_ARGUMENT naming the field");
    }

    private void releaseChecks() {
        ReleaseSessionResponse r = spark.withDeadlineAfter(30, TimeUnit.SECONDS).releaseSession(
            ReleaseSessionRequest.newBuilder().setSessionId(sid).setUserContext(user).build());
        if (!r.getSessionId().equals(sid)) fail("ReleaseSession answered for " + r.getSessionId());
        expectSparkError("ReleaseSession drops the session's views", () -> analyze(req().setSchema(
            AnalyzePlanRequest.Schema.newBuilder().setPlan(root(sql("SELECT * FROM tour_orders"))))),
            Status.Code.INTERNAL, "TABLE_OR_VIEW_NOT_FOUND");
    }

    /** Every check above, in a fresh Spark Connect session. */
    static void run(ManagedChannel channel) {
        ConnectTour t = new ConnectTour(channel);
        t.configChecks();
        t.executeChecks();
        t.analyzeChecks();
        t.releaseChecks();
        System.out.println("connect-tour: done");
    }
}
