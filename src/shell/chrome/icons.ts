// The line icons the shell draws (24×24, stroke = currentColor). A screen's menu entry names one of
// these; `npm run check` refuses any other name (menuIconErrors in menu.ts).
export const ICON_PATHS = {
  home: 'M3 11 12 4l9 7M5 10v10h5v-6h4v6h5V10',
  account: 'M12 12a4 4 0 1 0 0-8 4 4 0 0 0 0 8zM4 21c0-4 4-7 8-7s8 3 8 7',
  pin: 'M7 11V8a5 5 0 0 1 10 0v3M5 11h14v10H5zM12 15v2',
  viewPin: 'M2 12s4-7 10-7 10 7 10 7-4 7-10 7S2 12 2 12zM12 15a3 3 0 1 0 0-6 3 3 0 0 0 0 6z',
  generatePin: 'M4 4v6h6M20 20v-6h-6M5 15a8 8 0 0 0 14 2M19 9A8 8 0 0 0 5 7',
  calendar: 'M4 6h16v15H4zM4 10h16M9 3v5M15 3v5',
  bulletin: 'M4 5h16v12H8l-4 4zM8 9h8M8 13h5',
  forms: 'M6 3h9l4 4v14H6zM14 3v5h5M9 13h7M9 17h7',
  communication: 'M3 6h18v12H3zM3 7l9 6 9-6',
  guide: 'M4 5a2 2 0 0 1 2-2h13v16H6a2 2 0 0 0-2 2zM4 19V5M9 7h6',
  attendance: 'M9 11l3 3 8-8M20 12v7a2 2 0 0 1-2 2H6a2 2 0 0 1-2-2V5a2 2 0 0 1 2-2h9',
  signOut: 'M15 4h4v16h-4M10 17l5-5-5-5M15 12H3',
  menu: 'M4 6h16M4 12h16M4 18h16',
  close: 'M6 6l12 12M18 6 6 18',
  accessibility: 'M12 6a2 2 0 1 0 0-4 2 2 0 0 0 0 4zM4 8l8 2 8-2M12 10v5M9 22l3-7 3 7',
  globe: 'M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18zM3 12h18M12 3c3 3 3 15 0 18M12 3c-3 3-3 15 0 18',
  phone: 'M5 4h4l2 5-3 2a11 11 0 0 0 5 5l2-3 5 2v4a2 2 0 0 1-2 2A17 17 0 0 1 3 6a2 2 0 0 1 2-2',
  mail: 'M3 6h18v12H3zM3 7l9 6 9-6',
  alert: 'M12 3 2 21h20zM12 10v5M12 18v.01',
  wifiOff: 'M2 8a16 16 0 0 1 20 0M5 12a11 11 0 0 1 14 0M8.5 15.5a6 6 0 0 1 7 0M12 19v.01M3 3l18 18',
  payments: 'M3 6h18v12H3zM3 10h18M7 15h4',
  registration: 'M9 5H6v16h12V5h-3M9 3h6v4H9zM9 12h6M9 16h4',
  child: 'M12 8a3 3 0 1 0 0-6 3 3 0 0 0 0 6zM7 22v-6l-2-4 7-2 7 2-2 4v6',
  star: 'M12 3l2.7 5.6 6.3.9-4.5 4.4 1 6.1-5.5-2.9L6.5 20l1-6.1L3 9.5l6.3-.9z',
  external: 'M14 4h6v6M20 4l-9 9M18 14v6H4V6h6',
} as const;

export type IconName = keyof typeof ICON_PATHS;

export function isIconName(name: unknown): name is IconName {
  return typeof name === 'string' && Object.hasOwn(ICON_PATHS, name);
}
