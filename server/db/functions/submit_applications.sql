-- Submits of one moment in one call and one transaction (server/domains/enrolment/seats.ts): each payload
-- runs submit_application in a block of its own, so one submit that fails (a double submit, PPA01;
-- a deadlock, 40P01) rolls back only what it did and answers its error, and the others commit
-- together. Answers one outcome per payload, in order: {"ok": <answer>} or
-- {"error": <SQLSTATE>, "message": <text>}.
CREATE OR REPLACE FUNCTION submit_applications(ps jsonb) RETURNS jsonb LANGUAGE plpgsql AS $fn$
DECLARE
  v_p jsonb;
  v_out jsonb := '[]'::jsonb;
BEGIN
  FOR v_p IN SELECT value FROM jsonb_array_elements(ps) WITH ORDINALITY AS x(value, n) ORDER BY n LOOP
    BEGIN
      v_out := v_out || jsonb_build_array(jsonb_build_object('ok', submit_application(v_p)));
    EXCEPTION WHEN OTHERS THEN
      v_out := v_out || jsonb_build_array(jsonb_build_object('error', SQLSTATE, 'message', SQLERRM));
    END;
  END LOOP;
  RETURN v_out;
END
$fn$;
