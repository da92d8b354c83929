// A declared modal of a screen: its own data loads, its rules' context and its dialog (ModalDialog).
// A chunk of its own, with the dialog: the screen renderer loads it when a modal first opens.
import { useMemo } from 'react';
import type { RuleContext } from '../engine/form';
import { isTrue } from '../engine/logic';
import { resolveBinding, resolveParams, screenModel } from '../engine/screen';
import type { DeclarationSet } from '../engine/types';
import { ScreenRuntimeContext, type ScreenRuntime } from './context';
import type { RenderAction } from './kindProps';
import ModalDialog from './ModalDialog';
import { loadSpecsOf, useDataLoads } from './dataLoads';

export default function ModalHost({
  set,
  rt,
  modalId,
  extra,
  accountID,
  onClose,
  onConfirm,
}: {
  set: DeclarationSet;
  rt: ScreenRuntime;
  modalId: string;
  extra: Partial<RuleContext>;
  accountID: unknown;
  onClose: () => void;
  /** runs a confirm action; the modal's loads go with it, so the effect's rules see what the modal showed */
  onConfirm?: (a: RenderAction, modalCtx: Partial<RuleContext>) => Promise<void>;
}) {
  const decl = (rt.screen.modals ?? []).find((m) => m.id === modalId);
  const base = useMemo<RuleContext>(() => ({ ...rt.ctx, ...extra }), [rt.ctx, extra]);
  const loads = loadSpecsOf(set, decl?.data, base);
  const modalData = useDataLoads(loads, accountID);
  const data = useMemo(() => ({ ...rt.ctx.data, ...Object.fromEntries(Object.entries(modalData).map(([k, v]) => [k, v.data])) }), [rt.ctx.data, modalData]);
  const ctx = useMemo<RuleContext>(() => ({ ...base, data }), [base, data]);
  const formCtx = useMemo<RuleContext>(() => ({ ...rt.formCtx, ...extra, data }), [rt.formCtx, extra, data]);
  const inner = useMemo<ScreenRuntime>(
    () => ({
      ...rt,
      ctx,
      formCtx,
      data: { ...rt.data, ...modalData },
      isTrue: (ref, e) => isTrue(set.rules, ref, { ...ctx, ...e }),
      resolve: (b, e) => resolveParams(b, { ...ctx, ...e }),
      resolveOne: (b, e) => resolveBinding(b, { ...ctx, ...e }),
      runAction: (a, e) => rt.runAction(a, { ...extra, ...e }),
      runEffect: (ef, e) => rt.runEffect(ef, { ...extra, ...e }),
    }),
    [rt, ctx, formCtx, modalData, set.rules, extra],
  );
  const model = screenModel(set, rt.screen.id, ctx).modals.find((m) => m.id === modalId);
  if (!model) return null;
  return (
    <ScreenRuntimeContext.Provider value={inner}>
      <ModalDialog modal={model} onClose={onClose} onConfirm={onConfirm ? (a) => onConfirm(a, { data: ctx.data }) : undefined} />
    </ScreenRuntimeContext.Provider>
  );
}
