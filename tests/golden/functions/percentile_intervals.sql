-- Percentile, PercentileCont/Disc and Median over ANSI intervals return the
-- interval type with its default fields; the legacy percentile_disc flag is
-- the last constructor field.
CREATE TEMPORARY VIEW iv AS SELECT * FROM VALUES (1, INTERVAL '3' MONTH, INTERVAL '5' MINUTE) AS t(k, ym, dt);
SELECT median(ym), percentile(ym, 0.5), percentile_cont(0.5) WITHIN GROUP (ORDER BY dt), percentile(dt, array(0.1, 0.9)) FROM iv;
SET spark.sql.legacy.percentileDiscCalculation = true;
SELECT percentile_disc(0.5) WITHIN GROUP (ORDER BY k) FROM iv;
