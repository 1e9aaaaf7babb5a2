import { useState, type DragEvent, type ReactElement, type ReactNode } from 'react';
import { Box, IconButton, List, ListItem, Stack, Tooltip, Typography } from '@mui/material';
import DragIndicatorIcon from '@mui/icons-material/DragIndicator';
import ArrowUpwardIcon from '@mui/icons-material/ArrowUpward';
import ArrowDownwardIcon from '@mui/icons-material/ArrowDownward';

/** A row's icon button: named for its item, with a tooltip, a full 44 px tap target on a phone. */
export function RowAction({
  label,
  tip,
  icon,
  onClick,
  disabled,
  color,
}: {
  label: string;
  tip: string;
  icon: ReactElement;
  onClick: () => void;
  disabled?: boolean;
  color?: 'error';
}) {
  return (
    <Tooltip title={tip}>
      <span>
        <IconButton
          size="small"
          color={color}
          disabled={disabled}
          aria-label={label}
          onClick={onClick}
          sx={{ width: { xs: 44, sm: 36 }, height: { xs: 44, sm: 36 } }}
        >
          {icon}
        </IconButton>
      </span>
    </Tooltip>
  );
}

export interface Ordered {
  id: number;
  name: string;
}

/**
 * Items in their order, each draggable onto another to take that one's place, with Move up and
 * Move down buttons for the keyboard and for touch screens (where HTML drag and drop does not
 * work). `onMove(item, target)` puts `item` where `target` is now.
 */
export function OrderedList<T extends Ordered>({
  label,
  items,
  readOnly,
  onMove,
  details,
  actions,
  empty,
}: {
  label: string;
  items: T[];
  readOnly?: boolean;
  onMove: (item: T, target: T) => void;
  details?: (item: T) => ReactNode;
  actions?: (item: T) => ReactNode;
  empty?: string;
}) {
  const [dragged, setDragged] = useState<number | null>(null);
  const [over, setOver] = useState<number | null>(null);

  function drop(event: DragEvent, target: T) {
    event.preventDefault();
    const item = items.find((i) => i.id === dragged);
    setDragged(null);
    setOver(null);
    if (item && item.id !== target.id) onMove(item, target);
  }

  if (items.length === 0 && empty)
    return (
      <Typography color="text.secondary" sx={{ px: 2, py: 1.5 }}>
        {empty}
      </Typography>
    );
  return (
    <List aria-label={label} disablePadding>
      {items.map((item, index) => (
        <ListItem
          key={item.id}
          aria-label={item.name}
          draggable={!readOnly}
          onDragStart={(event) => {
            event.dataTransfer.setData('text/plain', String(item.id));
            event.dataTransfer.effectAllowed = 'move';
            setDragged(item.id);
          }}
          onDragEnd={() => {
            setDragged(null);
            setOver(null);
          }}
          onDragOver={(event) => {
            event.preventDefault();
            if (over !== item.id) setOver(item.id);
          }}
          onDrop={(event) => drop(event, item)}
          divider={index < items.length - 1}
          sx={{
            cursor: readOnly ? 'default' : 'grab',
            gap: { xs: 0.5, sm: 1 },
            px: { xs: 1, sm: 2 },
            py: 1,
            opacity: dragged === item.id ? 0.5 : 1,
            bgcolor: over === item.id && dragged !== item.id ? 'action.hover' : undefined,
          }}
        >
          {readOnly ? null : <DragIndicatorIcon aria-hidden color="action" fontSize="small" />}
          <Box sx={{ flex: 1, minWidth: 0 }}>
            <Typography sx={{ fontWeight: 600, overflowWrap: 'break-word' }}>
              {item.name}
            </Typography>
            {details?.(item)}
          </Box>
          {readOnly ? null : (
            <Stack direction="row" sx={{ flexShrink: 0, alignItems: 'center' }}>
              <RowAction
                label={`Move up: ${item.name}`}
                tip="Move up"
                icon={<ArrowUpwardIcon fontSize="small" />}
                disabled={index === 0}
                onClick={() => onMove(item, items[index - 1]!)}
              />
              <RowAction
                label={`Move down: ${item.name}`}
                tip="Move down"
                icon={<ArrowDownwardIcon fontSize="small" />}
                disabled={index === items.length - 1}
                onClick={() => onMove(item, items[index + 1]!)}
              />
              {actions?.(item)}
            </Stack>
          )}
        </ListItem>
      ))}
    </List>
  );
}
