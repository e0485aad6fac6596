"use client";

import { useEffect, useRef } from "react";

interface DesignChoice {
  id: string;
  format: string;
  size: string;
}
interface ContractChoice {
  id: string;
  status: string;
  format: string;
  size: string | null;
}

/**
 * A new campaign starts with what it can only be: the format's one design, and the one approved
 * contract for its format (and the design's size). Chosen once per format and design, so a person's
 * own choice, or clearing the field, is never overwritten. Returns the format's designs.
 */
export function useDefaultPicks<D extends DesignChoice>(p: {
  enabled: boolean;
  format: string;
  designs: D[] | undefined;
  contracts: ContractChoice[] | undefined;
  designId: string | null;
  contractId: string | null;
  pickDesign: (id: string) => void;
  pickContract: (id: string) => void;
}) {
  const picked = useRef<{ design?: string; contract?: string }>({});
  const formatDesigns = (p.designs ?? []).filter((d) => d.format === p.format);
  const designSize = formatDesigns.find((d) => d.id === p.designId)?.size ?? null;
  useEffect(() => {
    if (!p.enabled || !p.designs || picked.current.design === p.format) return;
    picked.current.design = p.format;
    if (formatDesigns.length === 1 && !p.designId) p.pickDesign(formatDesigns[0].id);
  });
  useEffect(() => {
    const key = `${p.format}:${designSize ?? ""}`;
    if (!p.enabled || !p.contracts || picked.current.contract === key) return;
    picked.current.contract = key;
    const approved = p.contracts.filter((c) => c.status === "approved" && c.format === p.format);
    const matching = designSize ? approved.filter((c) => c.size === designSize) : approved;
    if (matching.length === 1 && !p.contractId) p.pickContract(matching[0].id);
  });
  return formatDesigns;
}
