import { createContext, useContext } from "react";

/**
 * Whether the person may change the plan on screen (issue 41): false for a viewer of the plan's team.
 * The server refuses a viewer's change anyway; the page does not offer it.
 */
const CanEdit = createContext(true);

export const PlanAccessProvider = CanEdit.Provider;

export function useCanEdit(): boolean {
  return useContext(CanEdit);
}
