-- One submit of the parent application (ARCHITECTURE.md 'Seats and fees'): for each child's choices
-- it takes a seat while one remains (mode N takes without the condition), follows the program's
-- capacity check and the parent's enrolment option for a choice whose seat is full, writes the
-- registrations, held seats, enrolments and waitlist entries, queues the confirmation e-mail and
-- claims the draft, all in the caller's one statement. A draft already submitted raises PPA01, so a
-- second submit rolls back what it took. Waitlist places are not counted here but when the
-- confirmation is read: counting a seat's list in every submit made a rush's waitlisted submits cost
-- PostgreSQL time growing with the list. No amounts pass through it (the charges are posted by
-- server/domains/enrolment/applicationCharges.ts, in cents).
CREATE OR REPLACE FUNCTION submit_application(p jsonb) RETURNS jsonb LANGUAGE plpgsql AS $fn$
DECLARE
  v_provider int := (p->>'providerId')::int;
  v_account int := (p->>'accountId')::int;
  v_program int := (p->>'programPeriodId')::int;
  v_draft int := (p->>'draftId')::int;
  v_today date := (p->>'today')::date;
  v_now_ts timestamptz := (p->>'now')::timestamptz;
  v_checking boolean := p->>'capacityCheck' <> 'N';
  v_claims boolean := coalesce((p->>'claims')::boolean, false);
  v_pause double precision := coalesce((p->>'pauseSeconds')::double precision, 0);
  v_child jsonb;
  v_sel jsonb;
  v_seat int;
  v_took boolean;
  v_taken jsonb;
  v_full_ jsonb;
  v_waitlist jsonb;
  v_status text;
  v_reg int;
  v_acts jsonb;
  v_kids jsonb := '[]'::jsonb;
  v_joins jsonb := '[]'::jsonb;
  v_lines text[] := '{}';
  v_mail jsonb := p->'mail';
  v_email_sent boolean := false;
  v_result jsonb;
  v_t jsonb;
BEGIN
  FOR v_child IN SELECT value FROM jsonb_array_elements(p->'children') LOOP
    v_taken := '[]'::jsonb;
    v_full_ := '[]'::jsonb;
    FOR v_sel IN SELECT value FROM jsonb_array_elements(v_child->'selections') LOOP
      -- the seat row of the activity's week, made on first use with the activity's capacity
      SELECT id INTO v_seat FROM seats WHERE activity_id = (v_sel->>'activityID')::int AND week_start = (v_sel->>'seatWeek')::date;
      IF v_seat IS NULL THEN
        INSERT INTO seats (provider_id, activity_id, week_start, total, taken)
          VALUES (v_provider, (v_sel->>'activityID')::int, (v_sel->>'seatWeek')::date, (v_sel->>'capacity')::int, 0)
          ON CONFLICT (activity_id, week_start) DO NOTHING RETURNING id INTO v_seat;
        IF v_seat IS NULL THEN
          SELECT id INTO v_seat FROM seats WHERE activity_id = (v_sel->>'activityID')::int AND week_start = (v_sel->>'seatWeek')::date;
        END IF;
      END IF;
      -- tests pause here: many submits between finding and taking still take each seat once
      IF v_pause > 0 THEN PERFORM pg_sleep(v_pause); END IF;
      IF v_checking THEN
        UPDATE seats SET taken = taken + 1 WHERE id = v_seat AND taken < total;
      ELSE
        UPDATE seats SET taken = taken + 1 WHERE id = v_seat;
      END IF;
      v_took := FOUND;
      IF v_took THEN
        v_taken := v_taken || jsonb_build_array(v_sel || jsonb_build_object('seat', v_seat));
      ELSE
        v_full_ := v_full_ || jsonb_build_array(v_sel || jsonb_build_object('seat', v_seat));
      END IF;
    END LOOP;

    v_waitlist := '[]'::jsonb;
    IF jsonb_array_length(v_full_) = 0 THEN
      v_status := 'REGISTERED';
    ELSIF p->>'capacityCheck' = 'C' THEN
      -- a full activity cannot be submitted: nothing is taken for this child
      UPDATE seats SET taken = greatest(taken - 1, 0) WHERE id IN (SELECT (value->>'seat')::int FROM jsonb_array_elements(v_taken));
      v_taken := '[]'::jsonb;
      v_status := 'SEATS FULL';
    ELSIF p->>'enrollmentOption' = 'N' THEN
      -- wait until all fit: nothing taken now, every choice on the waitlist
      UPDATE seats SET taken = greatest(taken - 1, 0) WHERE id IN (SELECT (value->>'seat')::int FROM jsonb_array_elements(v_taken));
      v_waitlist := v_taken || v_full_;
      v_taken := '[]'::jsonb;
      v_status := 'WAITLISTED';
    ELSE
      v_waitlist := v_full_;
      v_status := CASE WHEN jsonb_array_length(v_taken) > 0 THEN 'REGISTERED' ELSE 'WAITLISTED' END;
    END IF;
    IF v_claims AND v_status = 'REGISTERED' THEN v_status := 'PENDING'; END IF;

    v_acts := '[]'::jsonb;
    IF v_status <> 'SEATS FULL' THEN
      INSERT INTO registrations AS r (provider_id, account_id, program_period_id, child_id, status, registration_date, submitted_on, is_pending_approval, claims_discount, draft_id)
        VALUES (v_provider, v_account, v_program, (v_child->>'prChildID')::int, v_status, v_today, v_today, v_status = 'PENDING', v_claims, v_draft)
        ON CONFLICT (program_period_id, child_id) DO UPDATE SET
          status = excluded.status, registration_date = excluded.registration_date, submitted_on = excluded.submitted_on,
          is_pending_approval = excluded.is_pending_approval, claims_discount = excluded.claims_discount,
          draft_id = excluded.draft_id, account_id = excluded.account_id
        RETURNING r.id INTO v_reg;
      FOR v_t IN SELECT value FROM jsonb_array_elements(v_taken) LOOP
        INSERT INTO seat_takes (provider_id, seat_id, registration_id, status) VALUES (v_provider, (v_t->>'seat')::int, v_reg, 'held');
        -- enrolled now, or once the provider approves a claimed discount
        IF v_status = 'REGISTERED' THEN
          INSERT INTO enrollments (provider_id, account_id, child_id, activity_id, enrollment_date, de_enroll_date, days_of_week, week_range, status)
            VALUES (v_provider, v_account, (v_child->>'prChildID')::int, (v_t->>'activityID')::int, (v_t->'enrollment'->>'enrollmentDate')::date,
                    (v_t->'enrollment'->>'deEnrollDate')::date, v_t->'enrollment'->>'daysOfWeek', v_t->'enrollment'->>'weekRange', 'A');
        END IF;
        v_acts := v_acts || jsonb_build_array(jsonb_build_object('activityID', (v_t->>'activityID')::int, 'activity', v_t->>'activity', 'weekStart', v_t->'weekStart', 'state', 'A', 'entryId', NULL));
      END LOOP;
      FOR v_t IN SELECT value FROM jsonb_array_elements(v_waitlist) LOOP
        v_joins := v_joins || jsonb_build_array(jsonb_build_object('seat', (v_t->>'seat')::int, 'child', (v_child->>'prChildID')::int, 'reg', v_reg));
        v_acts := v_acts || jsonb_build_array(jsonb_build_object('activityID', (v_t->>'activityID')::int, 'activity', v_t->>'activity', 'weekStart', v_t->'weekStart', 'state', 'W', 'entryId', NULL, 'seatId', (v_t->>'seat')::int, 'registrationId', v_reg));
      END LOOP;
    ELSE
      FOR v_t IN SELECT value FROM jsonb_array_elements(v_full_) LOOP
        v_acts := v_acts || jsonb_build_array(jsonb_build_object('activityID', (v_t->>'activityID')::int, 'activity', v_t->>'activity', 'weekStart', v_t->'weekStart', 'state', 'FULL', 'entryId', NULL));
      END LOOP;
    END IF;
    v_kids := v_kids || jsonb_build_array(jsonb_build_object('prChildID', (v_child->>'prChildID')::int, 'fullName', v_child->>'childName', 'status', v_status, 'activities', v_acts));
    IF v_mail IS NOT NULL THEN v_lines := v_lines || (v_child->'lines'->>v_status); END IF;
  END LOOP;

  -- the e-mail is queued with the registration or not at all (a transactional outbox)
  IF v_mail IS NOT NULL THEN
    INSERT INTO outbox (provider_id, kind, to_address, from_address, subject, text_body, created_at)
      VALUES (v_provider, v_mail->>'kind', v_mail->>'to', v_mail->>'from', v_mail->>'subject', (v_mail->>'before') || array_to_string(v_lines, E'\n') || (v_mail->>'after'), v_now_ts);
    v_email_sent := true;
  END IF;

  v_result := jsonb_build_object('key', p->>'key', 'programPeriodID', v_program, 'programPeriod', p->>'programPeriod', 'submittedOn', p->>'today',
                               'emailSent', v_email_sent, 'parentName', p->>'parentName', 'children', v_kids);
  -- a second submit of the same draft (a double click, a retry after a lost answer) finds it
  -- submitted and rolls back what it took
  UPDATE application_drafts SET status = 'submitted', step = 'submitted', submitted_at = v_now_ts, updated_at = v_now_ts, result = v_result
    WHERE id = v_draft AND application_drafts.status = 'open';
  IF NOT FOUND THEN
    RAISE EXCEPTION 'application already submitted' USING ERRCODE = 'PPA01';
  END IF;
  -- waitlist entries last, in one statement: their ids (a monotonic sequence) order each seat's list.
  -- Their places are counted when the confirmation is read, not here: counting a seat's list in
  -- every submit made a rush's waitlisted submits cost PostgreSQL time growing with the list.
  INSERT INTO waitlist_entries (provider_id, seat_id, account_id, child_id, registration_id, status, created_at)
    SELECT v_provider, (j->>'seat')::int, v_account, (j->>'child')::int, (j->>'reg')::int, 'active', v_now_ts
    FROM jsonb_array_elements(v_joins) WITH ORDINALITY AS x(j, n) ORDER BY n;
  RETURN jsonb_build_object('confirmation', v_result);
END
$fn$;
